// roce_dcqcn_top.v - one QP's send path on a 10GbE XGMII: the DCQCN rate limiter paces RoCEv2
// RDMA WRITE frames out of the frame builder, and the CNP detector on the receive path feeds
// it.  Synthesizable Verilog-2005; the unit the cocotb bench test_wire.py puts on the wire.
//
//   dcqcn_rate_limiter.v  Rc, Rt, alpha; tx_ready from its pacing
//   roce_frame_tx.v       a frame starts when the rate limiter and the MAC are both ready (and
//                         `enable`, the application has data); the rate limiter is charged the
//                         frame's length without FCS in that cycle
//   cnp_rx.v              a checked CNP for cfg_qpn becomes the rate limiter's cnp_valid
// The configuration inputs are what a control-register block would hold; `fault` is the rate
// limiter's verification hook (tie it to 0 in a design).
module roce_dcqcn_top #(
    parameter RATE_BITS    = 32,
    parameter ALPHA_BITS   = 16,
    parameter PAYLOAD      = 4096,
    parameter ACKREQ_EVERY = 4
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  enable,
    // rate limiter (dcqcn_rate_limiter.v)
    input  wire [RATE_BITS-1:0]  cfg_line,
    input  wire [RATE_BITS-1:0]  cfg_min_rate,
    input  wire [RATE_BITS-1:0]  cfg_rai,
    input  wire [RATE_BITS-1:0]  cfg_rhai,
    input  wire [RATE_BITS-1:0]  cfg_first_cnp_rate,
    input  wire [ALPHA_BITS:0]   cfg_g,
    input  wire [ALPHA_BITS:0]   cfg_initial_alpha,
    input  wire [47:0]           cfg_alpha_period,
    input  wire [47:0]           cfg_decrease_period,
    input  wire [47:0]           cfg_increase_timer,
    input  wire [39:0]           cfg_byte_counter,
    input  wire [31:0]           cfg_f,
    input  wire                  cfg_alpha_periodic,
    input  wire                  cfg_hai_linear,
    input  wire                  cfg_clamp_after_increase,
    input  wire                  cfg_rate_nearest,
    input  wire                  cfg_alpha_nearest,
    input  wire [31:0]           cfg_cost_per_byte,
    // the connection (roce_frame_tx.v, cnp_rx.v)
    input  wire [47:0]           cfg_dst_mac,
    input  wire [47:0]           cfg_src_mac,
    input  wire [31:0]           cfg_src_ip,
    input  wire [31:0]           cfg_dst_ip,
    input  wire [15:0]           cfg_udp_sport,
    input  wire [23:0]           cfg_dest_qp,
    input  wire [23:0]           cfg_qpn,
    input  wire [31:0]           cfg_rkey,
    input  wire [63:0]           cfg_va,
    // XGMII
    output wire [63:0]           xgmii_txd,
    output wire [7:0]            xgmii_txc,
    input  wire [63:0]           xgmii_rxd,
    input  wire [7:0]            xgmii_rxc,
    // status
    output wire [RATE_BITS-1:0]  rc,
    output wire [RATE_BITS-1:0]  rt,
    output wire [ALPHA_BITS:0]   alpha,
    output wire [47:0]           now,
    output wire                  tx_start,   // a frame starts: the rate limiter's tx event
    output wire [15:0]           tx_len,     // its length without FCS
    output wire [23:0]           psn,        // the next frame's PSN
    output wire [31:0]           cnps,       // CNPs accepted by the receive path
    output wire [31:0]           rx_bad,     // CNP-sized frames it dropped
    input  wire [1:0]            fault
);
    wire tx_ready, mac_ready, cnp;

    assign tx_start = enable && tx_ready && mac_ready;
    assign tx_len = PAYLOAD + 74;

    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] ts, bs; // the stages are not compared
    /* verilator lint_on UNUSEDSIGNAL */

    dcqcn_rate_limiter #(.RATE_BITS(RATE_BITS), .ALPHA_BITS(ALPHA_BITS)) rl (
        .clk(clk), .rst(rst), .cfg_line(cfg_line), .cfg_min_rate(cfg_min_rate), .cfg_rai(cfg_rai),
        .cfg_rhai(cfg_rhai), .cfg_first_cnp_rate(cfg_first_cnp_rate), .cfg_g(cfg_g),
        .cfg_initial_alpha(cfg_initial_alpha), .cfg_alpha_period(cfg_alpha_period),
        .cfg_decrease_period(cfg_decrease_period), .cfg_increase_timer(cfg_increase_timer),
        .cfg_byte_counter(cfg_byte_counter), .cfg_f(cfg_f), .cfg_alpha_periodic(cfg_alpha_periodic),
        .cfg_hai_linear(cfg_hai_linear), .cfg_clamp_after_increase(cfg_clamp_after_increase),
        .cfg_rate_nearest(cfg_rate_nearest), .cfg_alpha_nearest(cfg_alpha_nearest),
        .cfg_cost_per_byte(cfg_cost_per_byte), .cnp_valid(cnp), .tx_valid(tx_start), .tx_bytes(tx_len),
        .tx_ready(tx_ready), .rc(rc), .rt(rt), .alpha(alpha), .ts(ts), .bs(bs), .now(now), .fault(fault));

    roce_frame_tx #(.PAYLOAD(PAYLOAD), .ACKREQ_EVERY(ACKREQ_EVERY)) tx (
        .clk(clk), .rst(rst), .cfg_dst_mac(cfg_dst_mac), .cfg_src_mac(cfg_src_mac), .cfg_src_ip(cfg_src_ip),
        .cfg_dst_ip(cfg_dst_ip), .cfg_udp_sport(cfg_udp_sport), .cfg_dest_qp(cfg_dest_qp), .cfg_rkey(cfg_rkey),
        .cfg_va(cfg_va), .start(tx_start), .ready(mac_ready), .xgmii_txd(xgmii_txd), .xgmii_txc(xgmii_txc),
        .psn(psn));

    cnp_rx rx (.clk(clk), .rst(rst), .xgmii_rxd(xgmii_rxd), .xgmii_rxc(xgmii_rxc), .cfg_qpn(cfg_qpn), .cnp(cnp),
               .cnps(cnps), .bad(rx_bad));
endmodule
