// roce_frame_tx.v - RoCEv2 RDMA WRITE Only frames onto a 64-bit XGMII (10GBASE-R's MAC-PHY
// interface at 156.25 MHz), with their ICRC and FCS.  Synthesizable Verilog-2005.
//
// A frame (src/feroce/doc/rocev2-wire.md): Ethernet II, IPv4 (DSCP 0, ECT(0), DF, TTL 64),
// UDP to port 4791, BTH (opcode 0x0A WRITE Only, P_Key 0xffff, DestQP, AckReq on every
// ACKREQ_EVERY-th PSN, PSN counting from 0), RETH (VA advancing by PAYLOAD per frame, R_Key,
// DMA length PAYLOAD), PAYLOAD bytes (byte j of the frame with PSN p: (j + p) mod 256), ICRC;
// on the wire behind the preamble and SFD, followed by the FCS and /T/.  PAYLOAD is a multiple
// of 8, so the frame ends 2 bytes into a word and the ICRC's stream is whole words.
//
// Every byte is a function of its index (headers from the configuration and the PSN latched at
// `start`), so the ICRC and FCS engines run beside the output, 8 bytes a cycle, with the
// parallel CRC-32 of crc32_matrix.vh:
//   - the ICRC covers eight 0xff bytes and the IPv4 packet up to the ICRC, with TOS, TTL, the
//     IPv4 and UDP checksums and BTH byte 4 set to all ones; its word m (bytes 8m + 6 .. of the
//     frame) enters in the cycle that outputs frame word m, so it is complete one word before
//     the word that carries it;
//   - the FCS takes each frame word as it goes out; the last word's 2 bytes and the FCS itself
//     come from crc32_next on 2 bytes, in the same cycle.
// Timing: `start` in the cycle a frame may begin (`ready`): the preamble word goes out at that
// edge, frame word k at the k + 1-th edge after it, /T/ in lane 6 of the last word; two idle
// words follow (17 idle bytes with lane 7, at least the 12 of the inter-frame gap), then `ready`.
// A frame of L bytes without FCS (L = PAYLOAD + 74) takes L / 8 + 4 cycles: 525 for 4096.
module roce_frame_tx #(
    parameter PAYLOAD      = 4096,
    parameter ACKREQ_EVERY = 4
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [47:0] cfg_dst_mac,
    input  wire [47:0] cfg_src_mac,
    input  wire [31:0] cfg_src_ip,
    input  wire [31:0] cfg_dst_ip,
    input  wire [15:0] cfg_udp_sport,
    input  wire [23:0] cfg_dest_qp,
    input  wire [31:0] cfg_rkey,
    input  wire [63:0] cfg_va,
    input  wire        start,
    output wire        ready,
    output reg  [63:0] xgmii_txd,
    output reg  [7:0]  xgmii_txc,
    output reg  [23:0] psn         // the PSN of the next frame
);
`include "crc32_matrix.vh"

    localparam HDR = 70;                  // Ethernet 14, IPv4 20, UDP 8, BTH 12, RETH 16
    localparam ICRC_AT = HDR + PAYLOAD;   // first ICRC byte
    localparam L = ICRC_AT + 4;           // frame without FCS
    localparam LAST = L / 8;              // the word with the frame's last 2 bytes, FCS and /T/
    localparam NI = (ICRC_AT - 6) / 8;    // ICRC stream words (= LAST: ready one word ahead)
    localparam [15:0] IP_LEN = PAYLOAD + 60, UDP_LEN = PAYLOAD + 40;
    localparam [31:0] DMA_LEN = PAYLOAD;
    localparam [7:0] HDR8 = HDR;
    localparam AE = ACKREQ_EVERY == 0 ? 1 : ACKREQ_EVERY;
    localparam [63:0] IDLE = {8{8'h07}};

    reg        busy;
    reg [1:0]  gap;        // idle words still to send after /T/
    reg [15:0] k;          // the frame word going out at the next edge
    reg [23:0] cur_psn;
    reg        cur_ackreq;
    reg [63:0] va, cur_va;
    reg [31:0] icrc, fcs;  // running CRC registers (initial all ones, final value inverted)

    assign ready = !busy && gap == 0;

    // ---- the headers, as 70 bytes, byte 0 in bits 559:552 ----------------------------------
    // the IPv4 header checksum: ones' complement of the ones' complement sum of its 16-bit words
    wire [159:0] ip_hdr = {16'h4502, IP_LEN, 16'h0000, 16'h4000, 16'h4011, 16'h0000, cfg_src_ip, cfg_dst_ip};
    function [15:0] ip_checksum;
        input [159:0] h;
        integer i;
        reg [19:0] sum;
        begin
            sum = 20'd0;
            for (i = 0; i < 10; i = i + 1)
                sum = sum + {4'd0, h[16 * i +: 16]};
            sum = {4'd0, sum[15:0]} + {16'd0, sum[19:16]};
            sum = {4'd0, sum[15:0]} + {16'd0, sum[19:16]};
            ip_checksum = ~sum[15:0];
        end
    endfunction
    wire [15:0] ip_csum = ip_checksum(ip_hdr);

    wire [559:0] hdr = {cfg_dst_mac, cfg_src_mac, 16'h0800,
                        ip_hdr[159:80], ip_csum, cfg_src_ip, cfg_dst_ip,
                        cfg_udp_sport, 16'd4791, UDP_LEN, 16'h0000,
                        8'h0a, 8'h00, 16'hffff, 8'h00, cfg_dest_qp, {cur_ackreq, 7'd0}, cur_psn,
                        cur_va, cfg_rkey, DMA_LEN};

    // Byte b of the frame without FCS, from the headers, the PSN and the ICRC register (the ICRC's
    // bytes once it is complete).  The functions take all they read as arguments: a function that
    // reads module variables is not run again when they change (Icarus follows that rule).
    function [7:0] frame_byte;
        input [15:0] b;
        input [559:0] h;
        input [7:0] p;
        input [31:0] crc;
        begin
            if (b < HDR)
                frame_byte = h[559 - 8 * b -: 8];
            else if (b < ICRC_AT)
                frame_byte = b[7:0] - HDR8 + p;
            else if (b < L)
                frame_byte = ~crc[8 * (b - ICRC_AT) +: 8];
            else
                frame_byte = 8'h00; // beyond the frame: the last word's upper lanes, not sent
        end
    endfunction

    // the frame's word w (bytes 8w .. 8w + 7, byte 8w in lane 0)
    function [63:0] frame_word;
        input [15:0] w;
        input [559:0] h;
        input [7:0] p;
        input [31:0] crc;
        integer i;
        begin
            for (i = 0; i < 8; i = i + 1)
                frame_word[8 * i +: 8] = frame_byte(8 * w + i[15:0], h, p, crc);
        end
    endfunction

    // word m of the ICRC's stream: eight 0xff, then frame bytes 14 .. with the variant ones masked
    function [63:0] icrc_word;
        input [15:0] m;
        input [559:0] h;
        input [7:0] p;
        integer i;
        reg [15:0] o; // offset in the IPv4 packet
        begin
            for (i = 0; i < 8; i = i + 1) begin
                o = 8 * m + i[15:0] - 16'd8;
                if (m == 0 || o == 1 || o == 8 || o == 10 || o == 11 || o == 26 || o == 27 || o == 32)
                    icrc_word[8 * i +: 8] = 8'hff;
                else
                    icrc_word[8 * i +: 8] = frame_byte(o + 16'd14, h, p, 32'd0);
            end
        end
    endfunction

    wire [63:0] word = frame_word(k, hdr, cur_psn[7:0], icrc);
    wire [31:0] fcs_last = ~crc32_next(fcs, word, 4'd2); // the FCS over the last word's 2 bytes

    always @(posedge clk) begin
        if (rst) begin
            busy <= 0;
            gap <= 0;
            k <= 0;
            psn <= 0;
            va <= cfg_va;
            cur_psn <= 0;
            cur_ackreq <= 0;
            cur_va <= 0;
            icrc <= 32'hffffffff;
            fcs <= 32'hffffffff;
            xgmii_txd <= IDLE;
            xgmii_txc <= 8'hff;
        end else if (!busy) begin
            xgmii_txd <= IDLE;
            xgmii_txc <= 8'hff;
            if (gap != 0)
                gap <= gap - 1;
            else if (start) begin
                // /S/, six preamble bytes, SFD
                xgmii_txd <= {8'hd5, {6{8'h55}}, 8'hfb};
                xgmii_txc <= 8'h01;
                busy <= 1;
                k <= 0;
                cur_psn <= psn;
                cur_ackreq <= ACKREQ_EVERY != 0 && psn % AE == AE - 1;
                cur_va <= va;
                psn <= psn + 1;
                va <= va + PAYLOAD;
                icrc <= 32'hffffffff;
                fcs <= 32'hffffffff;
            end
        end else if (k != LAST) begin
            xgmii_txd <= word;
            xgmii_txc <= 8'h00;
            fcs <= crc32_next(fcs, word, 4'd8);
            if (k < NI)
                icrc <= crc32_next(icrc, icrc_word(k, hdr, cur_psn[7:0]), 4'd8);
            k <= k + 1;
        end else begin
            // the last 2 bytes, the FCS (least significant byte first), /T/, an idle byte
            xgmii_txd <= {8'h07, 8'hfd, fcs_last, word[15:0]};
            xgmii_txc <= 8'hc0;
            busy <= 0;
            gap <= 2;
        end
    end
endmodule
