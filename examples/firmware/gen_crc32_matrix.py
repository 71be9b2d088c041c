#!/usr/bin/python3
"""Writes crc32_matrix.vh, the parallel CRC-32 of the firmware example in matrix form.

The Ethernet CRC-32 (reflected polynomial 0xEDB88320, as the FCS and the RoCEv2 ICRC use it) is
linear over GF(2): the state after n bytes is M_n . {data, state}, one 32 x (8n + 32) bit matrix
per byte count.  Row i of M_n is the set of input bits whose parity is output bit i; it is found
by running the serial CRC on each input bit alone.  The Verilog function evaluates each row as
^(mask & {data, state}): 32 XOR trees per byte count, what synthesis would make of a bit-serial
loop, written out so that simulators evaluate it cheaply and the netlist is evident.

    python3 examples/firmware/gen_crc32_matrix.py > examples/firmware/crc32_matrix.vh
The test firmware-crc32-matrix checks that the committed file is what this script writes.
"""
import sys

POLY = 0xEDB88320


def serial(state, data, nbytes):
    """The CRC register after nbytes of data (byte 0 in bits 7:0, each byte least significant bit first)."""
    for k in range(8 * nbytes):
        bit = (data >> k) & 1
        state = (state >> 1) ^ (POLY if (state ^ bit) & 1 else 0)
    return state


def matrix(nbytes):
    """Row masks over {data[8n-1:0], state[31:0]} (state in bits 31:0)."""
    rows = [0] * 32
    for j in range(32 + 8 * nbytes):
        out = serial(1 << j if j < 32 else 0, 1 << (j - 32) if j >= 32 else 0, nbytes)
        for i in range(32):
            if out >> i & 1:
                rows[i] |= 1 << j
    return rows


def main():
    out = ["// crc32_matrix.vh - written by gen_crc32_matrix.py (the derivation is there): do not edit.",
           "// crc32_next(c, d, n): the CRC-32 register c (reflected, polynomial 0xEDB88320) after the",
           "// first n bytes of d (byte 0 in d[7:0], n = 1..8), as M_n . {d, c} over GF(2).",
           "function [31:0] crc32_next;",
           "    input [31:0] c;",
           "    input [63:0] d;",
           "    input [3:0] n;",
           "    reg [95:0] v;",
           "    begin",
           "        v = {d, c};",
           "        case (n)"]
    for n in range(1, 9):
        out.append("        4'd%d: begin" % n)
        for i, row in enumerate(matrix(n)):
            out.append("            crc32_next[%d] = ^(v & 96'h%024x);" % (i, row))
        out.append("        end")
    out += ["        default: crc32_next = c;", "        endcase", "    end", "endfunction"]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
