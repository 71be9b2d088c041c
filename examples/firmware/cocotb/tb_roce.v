// tb_roce.v - the cocotb bench's top for roce_dcqcn_top.v: its clock (156.25 MHz, generated
// here) and a signal for each port; test_wire.py drives the configuration and the receive
// XGMII (cocotbext-eth's XgmiiSource) and reads the transmit XGMII (XgmiiSink) and the status.
`timescale 1ns / 1ps
module tb_roce;
    reg clk = 0;
    always #3.2 clk = ~clk;

    reg rst = 1, enable = 0;
    reg [31:0] cfg_line = 0, cfg_min_rate = 0, cfg_rai = 0, cfg_rhai = 0, cfg_first_cnp_rate = 0;
    reg [16:0] cfg_g = 0, cfg_initial_alpha = 0;
    reg [47:0] cfg_alpha_period = 0, cfg_decrease_period = 0, cfg_increase_timer = 0;
    reg [39:0] cfg_byte_counter = 0;
    reg [31:0] cfg_f = 0, cfg_cost_per_byte = 0;
    reg cfg_alpha_periodic = 0, cfg_hai_linear = 0, cfg_clamp_after_increase = 0;
    reg cfg_rate_nearest = 0, cfg_alpha_nearest = 0;
    reg [47:0] cfg_dst_mac = 0, cfg_src_mac = 0;
    reg [31:0] cfg_src_ip = 0, cfg_dst_ip = 0, cfg_rkey = 0;
    reg [15:0] cfg_udp_sport = 0;
    reg [23:0] cfg_dest_qp = 0, cfg_qpn = 0;
    reg [63:0] cfg_va = 0;
    reg [63:0] xgmii_rxd = {8{8'h07}};
    reg [7:0] xgmii_rxc = 8'hff;
    reg [1:0] fault = 0;
    wire [63:0] xgmii_txd;
    wire [7:0] xgmii_txc;
    // cocotbext-eth's sink watches a copy taken at the falling edge: what it reads at a rising edge
    // is then the same in every simulator (Icarus gives a rising-edge callback the values before
    // the edge's update, Verilator after it, and a sink woken from idle would miss the /S/ word)
    reg [63:0] xgmii_txd_mon = {8{8'h07}};
    reg [7:0] xgmii_txc_mon = 8'hff;
    always @(negedge clk) begin
        xgmii_txd_mon <= xgmii_txd;
        xgmii_txc_mon <= xgmii_txc;
    end
    wire [31:0] rc, rt, cnps, rx_bad;
    wire [16:0] alpha;
    wire [47:0] now;
    wire tx_start;
    wire [15:0] tx_len;
    wire [23:0] psn;

    roce_dcqcn_top #(.RATE_BITS(32), .ALPHA_BITS(16), .PAYLOAD(4096), .ACKREQ_EVERY(4)) dut (
        .clk(clk), .rst(rst), .enable(enable), .cfg_line(cfg_line), .cfg_min_rate(cfg_min_rate),
        .cfg_rai(cfg_rai), .cfg_rhai(cfg_rhai), .cfg_first_cnp_rate(cfg_first_cnp_rate), .cfg_g(cfg_g),
        .cfg_initial_alpha(cfg_initial_alpha), .cfg_alpha_period(cfg_alpha_period),
        .cfg_decrease_period(cfg_decrease_period), .cfg_increase_timer(cfg_increase_timer),
        .cfg_byte_counter(cfg_byte_counter), .cfg_f(cfg_f), .cfg_alpha_periodic(cfg_alpha_periodic),
        .cfg_hai_linear(cfg_hai_linear), .cfg_clamp_after_increase(cfg_clamp_after_increase),
        .cfg_rate_nearest(cfg_rate_nearest), .cfg_alpha_nearest(cfg_alpha_nearest),
        .cfg_cost_per_byte(cfg_cost_per_byte), .cfg_dst_mac(cfg_dst_mac), .cfg_src_mac(cfg_src_mac),
        .cfg_src_ip(cfg_src_ip), .cfg_dst_ip(cfg_dst_ip), .cfg_udp_sport(cfg_udp_sport), .cfg_dest_qp(cfg_dest_qp),
        .cfg_qpn(cfg_qpn), .cfg_rkey(cfg_rkey), .cfg_va(cfg_va), .xgmii_txd(xgmii_txd), .xgmii_txc(xgmii_txc),
        .xgmii_rxd(xgmii_rxd), .xgmii_rxc(xgmii_rxc), .rc(rc), .rt(rt), .alpha(alpha), .now(now),
        .tx_start(tx_start), .tx_len(tx_len), .psn(psn), .cnps(cnps), .rx_bad(rx_bad), .fault(fault));
endmodule
