// tb_cosim.sv - closed-loop co-simulation of dcqcn_rate_limiter against feroce's
// C core through DPI-C (src/feroce/cosim/feroce-cosim.h): the emulated DCQCN
// switch returns CNPs for the frames the DUT paces out, and the golden
// fixed-point reaction point checks the DUT's Rc, Rt and alpha every cycle.
//
//   +spec=KEY=VALUE,...   the bench (feroce_cosim_open), e.g.
//                         +spec=mode=incast,senders=2,duration_ns=2000000,csv=out.csv
//                         +spec=mode=script,script=rp-connectx.txt
//   +fault=N              0 the design as written; 1 wrong rounding; 2 timers before the CNP;
//                         3 a CNP lost while the pacing holds a frame
//   +max_cycles=N         a hard stop (default 20 000 000) whatever the spec says: a failure
// Ends with $finish after "feroce-cosim: PASS ...", or with exit status 1 after "... FAIL ..."
// or a refused spec (feroce_cosim_exit: a plain failure, not the abort of $fatal).
`timescale 1ns / 1ps
module tb_cosim;
    import "DPI-C" function chandle feroce_cosim_open(input string spec);
    import "DPI-C" function longint feroce_cosim_reg(input chandle h, input string name);
    import "DPI-C" function int feroce_cosim_cnp(input chandle h, input longint cycle);
    import "DPI-C" function longint feroce_cosim_tx(input chandle h, input longint cycle, input int ready);
    import "DPI-C" function int feroce_cosim_check(input chandle h, input longint cycle, input longint rc,
                                                   input longint rt, input longint alpha);
    import "DPI-C" function int feroce_cosim_done(input chandle h, input longint cycle);
    import "DPI-C" function int feroce_cosim_close(input chandle h);
    import "DPI-C" function void feroce_cosim_exit(input int status);

    parameter int RATE_BITS = 32;
    parameter int ALPHA_BITS = 16;

    logic clk = 0, rst = 1;
    always #3.2 clk = ~clk; // 156.25 MHz: a 64-bit 10GbE datapath

    logic [RATE_BITS-1:0] cfg_line, cfg_min_rate, cfg_rai, cfg_rhai, cfg_first_cnp_rate;
    logic [ALPHA_BITS:0] cfg_g, cfg_initial_alpha;
    logic [47:0] cfg_alpha_period, cfg_decrease_period, cfg_increase_timer;
    logic [39:0] cfg_byte_counter;
    logic [31:0] cfg_f, cfg_cost_per_byte;
    logic cfg_alpha_periodic, cfg_hai_linear, cfg_clamp_after_increase, cfg_rate_nearest, cfg_alpha_nearest;
    logic cnp_valid = 0, tx_valid = 0;
    logic [15:0] tx_bytes = 0;
    logic [1:0] fault = 0;
    wire tx_ready;
    wire [RATE_BITS-1:0] rc, rt;
    wire [ALPHA_BITS:0] alpha;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] ts, bs; // the stages: not compared (the scoreboard checks Rc, Rt, alpha)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [47:0] now;

    dcqcn_rate_limiter #(.RATE_BITS(RATE_BITS), .ALPHA_BITS(ALPHA_BITS)) dut (
        .clk, .rst, .cfg_line, .cfg_min_rate, .cfg_rai, .cfg_rhai, .cfg_first_cnp_rate, .cfg_g,
        .cfg_initial_alpha, .cfg_alpha_period, .cfg_decrease_period, .cfg_increase_timer, .cfg_byte_counter,
        .cfg_f, .cfg_alpha_periodic, .cfg_hai_linear, .cfg_clamp_after_increase, .cfg_rate_nearest,
        .cfg_alpha_nearest, .cfg_cost_per_byte, .cnp_valid, .tx_valid, .tx_bytes, .tx_ready, .rc, .rt, .alpha,
        .ts, .bs, .now, .fault);

    chandle h;
    string spec;
    int f, result;
    longint cycle, max_cycles, n;

    task automatic fail(string why);
        $display("tb_cosim: %s", why);
        feroce_cosim_exit(1);
    endtask

    function automatic longint reg_of(string name);
        longint v = feroce_cosim_reg(h, name);
        if (v < 0) fail($sformatf("the bench has no register %s", name));
        return v;
    endfunction

    initial begin
        if (!$value$plusargs("spec=%s", spec)) spec = "mode=incast";
        if (!$value$plusargs("fault=%d", f)) f = 0;
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 20000000;
        if (f < 0 || f > 3) fail($sformatf("fault = %0d is not allowed: expected 0, 1, 2 or 3", f));
        fault = f[1:0];
        h = feroce_cosim_open(spec);
        if (h == null) fail($sformatf("the bench did not open (spec %s)", spec));
        if (reg_of("rate_bits") != longint'(RATE_BITS) || reg_of("alpha_bits") != longint'(ALPHA_BITS))
            fail($sformatf("the format has rate_bits %0d, alpha_bits %0d; this DUT is built with %0d, %0d",
                           reg_of("rate_bits"), reg_of("alpha_bits"), RATE_BITS, ALPHA_BITS));
        cfg_line = RATE_BITS'(reg_of("line"));
        cfg_min_rate = RATE_BITS'(reg_of("min_rate"));
        cfg_rai = RATE_BITS'(reg_of("rai"));
        cfg_rhai = RATE_BITS'(reg_of("rhai"));
        cfg_first_cnp_rate = RATE_BITS'(reg_of("first_cnp_rate"));
        cfg_g = (ALPHA_BITS + 1)'(reg_of("g"));
        cfg_initial_alpha = (ALPHA_BITS + 1)'(reg_of("initial_alpha"));
        cfg_alpha_period = 48'(reg_of("alpha_period"));
        cfg_decrease_period = 48'(reg_of("decrease_period"));
        cfg_increase_timer = 48'(reg_of("increase_timer"));
        cfg_byte_counter = 40'(reg_of("byte_counter"));
        cfg_f = 32'(reg_of("F"));
        cfg_alpha_periodic = reg_of("alpha_periodic") != 0;
        cfg_hai_linear = reg_of("hai_linear") != 0;
        cfg_clamp_after_increase = reg_of("clamp_after_increase") != 0;
        cfg_rate_nearest = reg_of("rate_nearest") != 0;
        cfg_alpha_nearest = reg_of("alpha_nearest") != 0;
        cfg_cost_per_byte = 32'(reg_of("cost_per_byte"));

        repeat (3) @(posedge clk);
        @(negedge clk);
        rst = 0; // the DUT's cycle 0 starts
        for (cycle = 0; cycle < max_cycles; cycle++) begin
            // the inputs of this cycle: CNPs first, then the bytes of a frame the DUT may start
            cnp_valid = feroce_cosim_cnp(h, cycle) != 0;
            n = feroce_cosim_tx(h, cycle, int'(tx_ready));
            tx_valid = n != 0;
            tx_bytes = 16'(n);
            @(posedge clk); // the DUT applies this cycle's events
            @(negedge clk);
            if (now != 48'(cycle + 1)) fail($sformatf("the DUT is at cycle %0d, the bench at %0d", now, cycle + 1));
            void'(feroce_cosim_check(h, cycle, longint'(rc), longint'(rt), longint'(alpha))); // reports the first
            if (feroce_cosim_done(h, cycle) != 0) break;
        end
        result = feroce_cosim_close(h);
        if (cycle >= max_cycles) fail($sformatf("stopped at max_cycles = %0d before the bench's end", max_cycles));
        if (result != 0) fail($sformatf("%0d comparisons failed (fault %0d)", result, f));
        $finish;
    end
endmodule
