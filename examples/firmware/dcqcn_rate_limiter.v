// dcqcn_rate_limiter.v - a DCQCN reaction point (rate limiter) for one QP, in
// the fixed-point recipe of src/feroce/doc/dcqcn.md ("Fixed-point reaction
// point"): the registers feroce's golden model (feroce-rp-fixed.h) holds,
// updated once per clock cycle.  Synthesizable Verilog-2005.
//
// One cycle is one instant.  The events of cycle n (inputs sampled at the
// rising edge that ends it) are applied in the spec's order:
//   1. a CNP (cnp_valid),
//   2. the alpha tick or expiry, then the decrease tick, then the increase
//      timer expiry (timers are absolute cycle numbers compared with `now`),
//   3. the transmitted bytes (tx_valid, tx_bytes) into the byte counter.
// After that edge rc, rt and alpha are the registers after every event of n.
//
// Pacing: a token counter.  Every cycle adds Rc (LSBs of b/s) to `credit`,
// capped at 0; a frame of L bytes subtracts (L + 24) x cfg_cost_per_byte
// (cost_per_byte = 8 x clock_hz / rate LSB: the credit a byte on the wire
// costs, preamble, FCS and gap included), so frames leave at exactly Rc.
// tx_ready says the next frame may start.
//
// Limits, as in the golden model's format: RATE_BITS + ALPHA_BITS <= 62;
// at most one CNP and one byte-counter event per cycle (tx_bytes must not
// exceed the byte counter B).
//
// `fault` is a verification hook that breaks the design on purpose (tie it to
// 0 in a real design): 1 rounds the cut's decrement to the nearest LSB when
// the format says truncate (and the other way round); 2 applies the timers
// of a cycle before its CNP; 3 loses a CNP that arrives while the pacing
// holds the next frame back (tx_ready low), as a CNP input sampled only with
// the frame handshake would.  The scoreboard must catch all three.
module dcqcn_rate_limiter #(
    parameter RATE_BITS  = 32,
    parameter ALPHA_BITS = 16,
    parameter CYCLE_BITS = 48,
    parameter STAGE_BITS = 32,
    parameter BYTE_BITS  = 40
) (
    input  wire                  clk,
    input  wire                  rst,
    // configuration (register units of the format; held while running)
    input  wire [RATE_BITS-1:0]  cfg_line,
    input  wire [RATE_BITS-1:0]  cfg_min_rate,
    input  wire [RATE_BITS-1:0]  cfg_rai,
    input  wire [RATE_BITS-1:0]  cfg_rhai,
    input  wire [RATE_BITS-1:0]  cfg_first_cnp_rate,  // 0 = none
    input  wire [ALPHA_BITS:0]   cfg_g,               // g x 2^ALPHA_BITS
    input  wire [ALPHA_BITS:0]   cfg_initial_alpha,
    input  wire [CYCLE_BITS-1:0] cfg_alpha_period,    // K, cycles
    input  wire [CYCLE_BITS-1:0] cfg_decrease_period, // D, cycles, 0 = cut at each CNP
    input  wire [CYCLE_BITS-1:0] cfg_increase_timer,  // T, cycles
    input  wire [BYTE_BITS-1:0]  cfg_byte_counter,    // B, bytes, 0 = off
    input  wire [STAGE_BITS-1:0] cfg_f,               // fast-recovery stages
    input  wire                  cfg_alpha_periodic,  // 0 on_cnp, 1 periodic
    input  wire                  cfg_hai_linear,      // 0 constant, 1 linear
    input  wire                  cfg_clamp_after_increase,
    input  wire                  cfg_rate_nearest,    // rounding of the rate products
    input  wire                  cfg_alpha_nearest,   // rounding of the alpha products
    input  wire [31:0]           cfg_cost_per_byte,
    // events
    input  wire                  cnp_valid,
    input  wire                  tx_valid,
    input  wire [15:0]           tx_bytes,
    // pacing
    output wire                  tx_ready,
    // registers
    output reg  [RATE_BITS-1:0]  rc,
    output reg  [RATE_BITS-1:0]  rt,
    output reg  [ALPHA_BITS:0]   alpha,
    output reg  [STAGE_BITS-1:0] ts,
    output reg  [STAGE_BITS-1:0] bs,
    output reg  [CYCLE_BITS-1:0] now,
    input  wire [1:0]            fault
);
    localparam W = RATE_BITS, WA = ALPHA_BITS;

    reg [BYTE_BITS-1:0]  byte_acc;
    reg [CYCLE_BITS-1:0] next_alpha, next_dec, next_inc;
    reg                  active, alpha_flag, dec_flag, may_clamp, inc_armed;
    reg signed [63:0]    credit;

    wire signed [63:0] rc64 = $signed({{(64 - W) {1'b0}}, rc});
    wire signed [63:0] cost = $signed(({48'd0, tx_bytes} + 64'd24) * {32'd0, cfg_cost_per_byte});

    assign tx_ready = credit >= 0;
    wire cnp_in = cnp_valid && !(fault == 2'd3 && !tx_ready);

    // ---- the rules, as functions of the values they read ----------------
    // (products are formed in 64 bits; the high bits of the results are 0 by the format's limits)
    /* verilator lint_off UNUSEDSIGNAL */

    // x / 2^s rounded: truncate, or to the nearest with ties up
    function [63:0] rnd;
        input [63:0] x;
        input integer s;
        input nearest;
        begin
            rnd = nearest ? (x + (64'd1 << (s - 1))) >> s : x >> s;
        end
    endfunction

    // alpha <- (1 - g) alpha (+ g): A <- RND(A (ONE - G), WA) (+ G)
    function [WA:0] alpha_next;
        input [WA:0] a;
        input raise;
        reg [63:0] a64, m64, g64, nxt;
        begin
            a64 = {{(63 - WA) {1'b0}}, a};
            g64 = {{(63 - WA) {1'b0}}, cfg_g};
            m64 = (64'd1 << WA) - g64;
            nxt = rnd(a64 * m64, WA, cfg_alpha_nearest) + (raise ? g64 : 64'd0);
            alpha_next = nxt[WA:0];
        end
    endfunction

    // Rc <- max(MIN, Rc - RND(Rc A, WA + 1))
    function [W-1:0] cut_rc;
        input [W-1:0] r;
        input [WA:0] a;
        reg [63:0] r64, a64, dec;
        begin
            r64 = {{(64 - W) {1'b0}}, r};
            a64 = {{(63 - WA) {1'b0}}, a};
            dec = rnd(r64 * a64, WA + 1, cfg_rate_nearest ^ (fault == 2'd1));
            // dec <= r / 2 (alpha <= 1): no borrow
            cut_rc = (r - dec[W-1:0] > cfg_min_rate) ? r - dec[W-1:0] : cfg_min_rate;
        end
    endfunction

    // Rt <- min(LINE, Rt + step), without overflow
    function [W-1:0] add_capped;
        input [W-1:0] r;
        input [63:0] step;
        begin
            add_capped = (step >= {{(64 - W) {1'b0}}, cfg_line - r}) ? cfg_line : r + step[W-1:0];
        end
    endfunction

    // one increase event with the stages already counted: {rc, rt}
    function [2*W-1:0] increase;
        input [W-1:0] r_c, r_t;
        input [STAGE_BITS-1:0] s_t, s_b;
        reg [STAGE_BITS-1:0] lo, hi, over;
        reg [1:0] stage; // 0 fast recovery, 1 additive, 2 hyper
        reg [63:0] step;
        reg [W-1:0] nt;
        reg [63:0] avg;
        begin
            lo = s_t < s_b ? s_t : s_b;
            hi = s_t < s_b ? s_b : s_t;
            if (cfg_byte_counter != 0) begin
                stage = hi <= cfg_f ? 2'd0 : lo > cfg_f ? 2'd2 : 2'd1;
                over  = lo - cfg_f;
            end else begin
                stage = s_t <= cfg_f ? 2'd0 : s_t == cfg_f + 1 ? 2'd1 : 2'd2;
                over  = s_t - cfg_f - 1;
            end
            step = {{(64 - W) {1'b0}}, cfg_rhai};
            if (cfg_hai_linear)
                step = step * {{(64 - STAGE_BITS) {1'b0}}, over};
            nt = stage == 2'd0 ? r_t : stage == 2'd1 ? add_capped(r_t, {{(64 - W) {1'b0}}, cfg_rai})
                                                     : add_capped(r_t, step);
            avg = rnd({{(63 - W) {1'b0}}, {1'b0, nt} + {1'b0, r_c}}, 1, cfg_rate_nearest);
            increase = {avg[W-1:0], nt};
        end
    endfunction

    /* verilator lint_on UNUSEDSIGNAL */

    // ---- one cycle --------------------------------------------------------

    reg [W-1:0]          n_rc, n_rt;
    reg [WA:0]           n_alpha;
    reg [STAGE_BITS-1:0] n_ts, n_bs;
    reg [BYTE_BITS-1:0]  n_acc, sum;
    reg [CYCLE_BITS-1:0] n_next_alpha, n_next_dec, n_next_inc;
    reg                  n_active, n_alpha_flag, n_dec_flag, n_may_clamp, n_inc_armed;
    reg                  alpha_done;
    // the inputs the tasks read, copied in the block: Verilog-2005's @* does not look into the
    // tasks and functions it calls, so a simulator that follows it (Icarus) would not run the
    // block when only the cycle counter or the byte inputs change, and would miss timers
    reg [CYCLE_BITS-1:0] cyc;
    reg                  tx_in;
    reg [15:0]           tx_n;

    // the cut at cycle `now`
    task do_cut;
        begin
            if (!cfg_clamp_after_increase || n_may_clamp)
                n_rt = n_rc;
            n_rc = cut_rc(n_rc, n_alpha);
            n_ts = 0;
            n_bs = 0;
            n_acc = 0;
            n_may_clamp = 0;
            n_next_inc = cyc + cfg_increase_timer;
            n_inc_armed = 1;
        end
    endtask

    // 1. a CNP
    task do_cnp;
        reg first;
        begin
            first = !n_active;
            if (first) begin
                n_active = 1;
                n_alpha = cfg_initial_alpha;
                n_next_alpha = cyc + cfg_alpha_period;
                if (cfg_decrease_period != 0)
                    n_next_dec = cyc + cfg_decrease_period;
            end
            if (first && cfg_first_cnp_rate != 0) begin
                // Rc = Rt = first_cnp_rate within [min_rate, Rc]; counts as a cut
                n_rt = cfg_first_cnp_rate > cfg_min_rate ? cfg_first_cnp_rate : cfg_min_rate;
                if (n_rt > n_rc)
                    n_rt = n_rc;
                n_rc = n_rt;
                n_may_clamp = 0;
                if (cfg_decrease_period == 0) begin
                    n_ts = 0;
                    n_bs = 0;
                    n_acc = 0;
                    n_next_inc = cyc + cfg_increase_timer;
                    n_inc_armed = 1;
                end
            end else if (cfg_decrease_period == 0) begin
                do_cut;
            end
            if (cfg_decrease_period != 0)
                n_dec_flag = 1;
            if (!cfg_alpha_periodic) begin
                n_alpha = alpha_next(n_alpha, 1'b1); // after the cut: the cut used the old alpha
                n_next_alpha = cyc + cfg_alpha_period;
            end else if (!first) begin
                n_alpha_flag = 1;
            end
        end
    endtask

    // 2a. the alpha tick (periodic) or expiry (on_cnp) due at `now`
    task do_alpha;
        begin
            if (n_active && !alpha_done && n_next_alpha == cyc) begin
                n_alpha = alpha_next(n_alpha, cfg_alpha_periodic && n_alpha_flag);
                n_alpha_flag = 0;
                n_next_alpha = cyc + cfg_alpha_period;
                alpha_done = 1;
            end
        end
    endtask

    // 2. the timers due at `now`: alpha, decrease, increase
    task do_timers;
        reg [2*W-1:0] inc;
        begin
            if (n_active) begin
                if (cfg_decrease_period != 0 && n_next_dec == cyc) begin
                    if (n_dec_flag) begin
                        do_alpha; // the alpha tick of this cycle comes first
                        n_dec_flag = 0;
                        do_cut;   // restarts the increase timer: an expiry now is superseded
                    end
                    n_next_dec = cyc + cfg_decrease_period;
                end
                do_alpha;
                if (n_inc_armed && n_next_inc == cyc) begin
                    n_ts = n_ts + 1;
                    inc = increase(n_rc, n_rt, n_ts, n_bs);
                    n_rc = inc[2*W-1:W];
                    n_rt = inc[W-1:0];
                    n_may_clamp = 1;
                    n_next_inc = cyc + cfg_increase_timer;
                end
            end
        end
    endtask

    // 3. the transmitted bytes: at most one byte-counter event
    task do_bytes;
        reg [2*W-1:0] inc;
        begin
            if (n_active && cfg_byte_counter != 0 && tx_in) begin
                sum = n_acc + {{(BYTE_BITS - 16) {1'b0}}, tx_n};
                if (sum >= cfg_byte_counter) begin
                    n_acc = sum - cfg_byte_counter;
                    n_bs = n_bs + 1;
                    inc = increase(n_rc, n_rt, n_ts, n_bs);
                    n_rc = inc[2*W-1:W];
                    n_rt = inc[W-1:0];
                    n_may_clamp = 1;
                end else begin
                    n_acc = sum;
                end
            end
        end
    endtask

    always @* begin
        n_rc = rc;
        n_rt = rt;
        n_alpha = alpha;
        n_ts = ts;
        n_bs = bs;
        n_acc = byte_acc;
        n_next_alpha = next_alpha;
        n_next_dec = next_dec;
        n_next_inc = next_inc;
        n_active = active;
        n_alpha_flag = alpha_flag;
        n_dec_flag = dec_flag;
        n_may_clamp = may_clamp;
        n_inc_armed = inc_armed;
        alpha_done = 0;
        sum = 0;
        cyc = now;
        tx_in = tx_valid;
        tx_n = tx_bytes;
        if (fault == 2'd2) begin
            do_timers;          // the broken order: timers first
            if (cnp_in)
                do_cnp;
        end else begin
            if (cnp_in)
                do_cnp;
            do_timers;
        end
        do_bytes;
    end

    always @(posedge clk) begin
        if (rst) begin
            rc <= cfg_line;
            rt <= cfg_line;
            alpha <= cfg_initial_alpha;
            ts <= 0;
            bs <= 0;
            byte_acc <= 0;
            next_alpha <= 0;
            next_dec <= 0;
            next_inc <= 0;
            active <= 0;
            alpha_flag <= 0;
            dec_flag <= 0;
            may_clamp <= 1;
            inc_armed <= 0;
            now <= 0;
            credit <= 0;
        end else begin
            rc <= n_rc;
            rt <= n_rt;
            alpha <= n_alpha;
            ts <= n_ts;
            bs <= n_bs;
            byte_acc <= n_acc;
            next_alpha <= n_next_alpha;
            next_dec <= n_next_dec;
            next_inc <= n_next_inc;
            active <= n_active;
            alpha_flag <= n_alpha_flag;
            dec_flag <= n_dec_flag;
            may_clamp <= n_may_clamp;
            inc_armed <= n_inc_armed;
            now <= now + 1;
            // pacing at the rate of this cycle
            if (tx_valid)
                credit <= credit + rc64 - cost;
            else if (credit + rc64 > 0)
                credit <= 0;
            else
                credit <= credit + rc64;
        end
    end
endmodule
