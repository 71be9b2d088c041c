// tb_rate_limiter.v - the cocotb bench's top for dcqcn_rate_limiter.v: its clock (156.25 MHz,
// generated here so that no Python runs between the cycles the bench looks at) and a signal for
// each port, which test_rate_limiter.py drives and reads.
`timescale 1ns / 1ps
module tb_rate_limiter;
    reg clk = 0;
    always #3.2 clk = ~clk;

    reg rst = 1;
    reg [31:0] cfg_line = 0, cfg_min_rate = 0, cfg_rai = 0, cfg_rhai = 0, cfg_first_cnp_rate = 0;
    reg [16:0] cfg_g = 0, cfg_initial_alpha = 0;
    reg [47:0] cfg_alpha_period = 0, cfg_decrease_period = 0, cfg_increase_timer = 0;
    reg [39:0] cfg_byte_counter = 0;
    reg [31:0] cfg_f = 0, cfg_cost_per_byte = 0;
    reg cfg_alpha_periodic = 0, cfg_hai_linear = 0, cfg_clamp_after_increase = 0;
    reg cfg_rate_nearest = 0, cfg_alpha_nearest = 0;
    reg cnp_valid = 0, tx_valid = 0;
    reg [15:0] tx_bytes = 0;
    reg [1:0] fault = 0;
    wire tx_ready;
    wire [31:0] rc, rt, ts, bs;
    wire [16:0] alpha;
    wire [47:0] now;

    dcqcn_rate_limiter #(.RATE_BITS(32), .ALPHA_BITS(16)) dut (
        .clk(clk), .rst(rst), .cfg_line(cfg_line), .cfg_min_rate(cfg_min_rate), .cfg_rai(cfg_rai),
        .cfg_rhai(cfg_rhai), .cfg_first_cnp_rate(cfg_first_cnp_rate), .cfg_g(cfg_g),
        .cfg_initial_alpha(cfg_initial_alpha), .cfg_alpha_period(cfg_alpha_period),
        .cfg_decrease_period(cfg_decrease_period), .cfg_increase_timer(cfg_increase_timer),
        .cfg_byte_counter(cfg_byte_counter), .cfg_f(cfg_f), .cfg_alpha_periodic(cfg_alpha_periodic),
        .cfg_hai_linear(cfg_hai_linear), .cfg_clamp_after_increase(cfg_clamp_after_increase),
        .cfg_rate_nearest(cfg_rate_nearest), .cfg_alpha_nearest(cfg_alpha_nearest),
        .cfg_cost_per_byte(cfg_cost_per_byte), .cnp_valid(cnp_valid), .tx_valid(tx_valid), .tx_bytes(tx_bytes),
        .tx_ready(tx_ready), .rc(rc), .rt(rt), .alpha(alpha), .ts(ts), .bs(bs), .now(now), .fault(fault));
endmodule
