// cnp_rx.v - the receive path's CNP detector on a 64-bit XGMII: a one-cycle `cnp` for each
// RoCEv2 CNP addressed to our QP whose FCS and ICRC are right.  Synthesizable Verilog-2005.
//
// A frame starts with /S/ in lane 0 or lane 4 (a PHY may align a start to either); the words
// from the start are kept, up to 12 (96 bytes: 8 of preamble and SFD, 4 of offset, the 78 of a
// CNP with its FCS), and /T/ ends the frame.  A frame of exactly 78 bytes (Ethernet, IPv4, UDP,
// BTH, the CNP's 16 reserved bytes, ICRC, FCS) is then aligned and checked over 10 cycles, 8
// bytes a cycle with the parallel CRC-32 of crc32_matrix.vh: the FCS over bytes 0..73, the ICRC
// over eight 0xff bytes and bytes 14..69 with TOS, TTL, the checksums and BTH byte 4 masked; and
// EtherType IPv4, IPv4 version 4 and IHL 5, UDP, destination port 4791, opcode 0x81 and
// DestQP = cfg_qpn.  Every other frame (an ACK, a WRITE, a longer or shorter frame) is not a CNP
// and is ignored; a 78-byte frame that fails a check counts in `bad`.
// Latency: the edge that takes in the /T/ word is cycle E; `cnp` is high in cycle E + 12 (the
// cycle whose edge applies it to a rate limiter).  A CNP takes at least 11 cycles on the wire,
// so the check of one always ends before the next one's.
module cnp_rx (
    input  wire        clk,
    input  wire        rst,
    input  wire [63:0] xgmii_rxd,
    input  wire [7:0]  xgmii_rxc,
    input  wire [23:0] cfg_qpn,
    output reg         cnp,
    output reg  [31:0] cnps,      // CNPs accepted
    output reg  [31:0] bad        // CNP-sized frames dropped by a check
);
`include "crc32_matrix.vh"

    localparam LEN = 78;

    // ---- reception --------------------------------------------------------------------------
    reg         in_frame, lane4, too_long;
    reg [3:0]   words;             // words kept so far
    reg [767:0] raw;               // the words from the start, word 0 in bits 63:0

    // where /T/ is in this word (8 = none)
    reg [3:0] term;
    integer i;
    always @* begin
        term = 4'd8;
        for (i = 7; i >= 0; i = i - 1)
            if (xgmii_rxc[i] && xgmii_rxd[8 * i +: 8] == 8'hfd)
                term = i[3:0];
    end
    wire start0 = xgmii_rxc[0] && xgmii_rxd[7:0] == 8'hfb;
    wire start4 = xgmii_rxc[4] && xgmii_rxd[39:32] == 8'hfb;
    // frame bytes (after the SFD) up to /T/: 8 x words + term - (start lane + 8)
    wire [7:0] frame_len = {words, 3'd0} + {4'd0, term} - (lane4 ? 8'd12 : 8'd8);
    wire [767:0] raw_now = raw | ({704'd0, xgmii_rxd} << {words, 6'd0});

    // ---- the check --------------------------------------------------------------------------
    reg [639:0] f;                 // the 78 bytes (then 2 of 0), byte 0 in bits 7:0
    reg         checking;
    reg [3:0]   k;
    reg [31:0]  fcs, icrc;

    // word w of the ICRC's stream over the frame's bytes x: eight 0xff, then bytes 14.. with the
    // variant ones masked (x is an argument: a function reading a module variable would not be
    // run again when it changes)
    function [63:0] icrc_word;
        input [3:0] w;
        input [639:0] x;
        integer n, o;
        begin
            for (n = 0; n < 8; n = n + 1) begin
                o = 8 * w + n - 8; // offset in the IPv4 packet
                if (w == 0 || o == 1 || o == 8 || o == 10 || o == 11 || o == 26 || o == 27 || o == 32)
                    icrc_word[8 * n +: 8] = 8'hff;
                else
                    icrc_word[8 * n +: 8] = x[8 * (o + 14) +: 8];
            end
        end
    endfunction

    // byte j of the frame being checked
`define FB(j) f[8 * (j) +: 8]
    wire [63:0] fcs_word = f[64 * k +: 64];
    wire headers_ok = {`FB(12), `FB(13)} == 16'h0800 && `FB(14) == 8'h45 && `FB(23) == 8'h11 &&
                      {`FB(36), `FB(37)} == 16'd4791 && `FB(42) == 8'h81 && {`FB(47), `FB(48), `FB(49)} == cfg_qpn;
    wire fcs_ok = ~fcs == {`FB(77), `FB(76), `FB(75), `FB(74)};
    wire icrc_ok = ~icrc == {`FB(73), `FB(72), `FB(71), `FB(70)};
`undef FB

    always @(posedge clk) begin
        cnp <= 0;
        if (rst) begin
            in_frame <= 0;
            lane4 <= 0;
            too_long <= 0;
            words <= 0;
            raw <= 0;
            f <= 0;
            checking <= 0;
            k <= 0;
            fcs <= 32'hffffffff;
            icrc <= 32'hffffffff;
            cnps <= 0;
            bad <= 0;
        end else begin
            if (!in_frame) begin
                if (start0 || start4) begin
                    in_frame <= 1;
                    lane4 <= start4 && !start0;
                    too_long <= 0;
                    words <= 1;
                    raw <= {704'd0, xgmii_rxd};
                end
            end else if (term != 4'd8) begin
                in_frame <= 0;
                if (!too_long && frame_len == LEN) begin
                    f <= {16'd0, lane4 ? raw_now[96 +: 624] : raw_now[64 +: 624]};
                    checking <= 1;
                    k <= 0;
                    fcs <= 32'hffffffff;
                    icrc <= 32'hffffffff;
                end
            end else if (words == 4'd11) begin
                too_long <= 1; // longer than a CNP: not one
            end else begin
                raw <= raw_now;
                words <= words + 1;
            end
            if (checking) begin
                // FCS over bytes 0..73 (9 words and 2 bytes), ICRC over its 8 words
                fcs <= crc32_next(fcs, fcs_word, k == 4'd9 ? 4'd2 : 4'd8);
                if (k < 4'd8)
                    icrc <= crc32_next(icrc, icrc_word(k, f), 4'd8);
                k <= k + 1;
                if (k == 4'd9)
                    checking <= 0;
            end else if (k == 4'd10) begin
                k <= 0;
                if (fcs_ok && icrc_ok && headers_ok) begin
                    cnp <= 1;
                    cnps <= cnps + 1;
                end else begin
                    bad <= bad + 1;
                end
            end
        end
    end
endmodule
