-- feroce-roce.lua: RoCEv2 additions for Wireshark >= 4.0 (Lua 5.2).
--
--   * decodes the RoCEv2 CNP (BTH opcode 0x81), which stock Wireshark shows as "Unknown OpCode";
--   * checks the ICRC of every RoCEv2 packet over IPv4 (UDP destination port 4791), which stock
--     Wireshark shows but never verifies;
--   * names the kind of every MAC-control PAUSE (802.3x link-level PAUSE, opcode 0x0001, or
--     PFC, 0x0101) and gives its pause time in microseconds at the link's rate.
--
-- Fields (all filterable):
--   feroce.cnp            the CNP protocol item        feroce.cnp.opcode    BTH opcode (0x81)
--   feroce.cnp.pkey       P_Key                        feroce.cnp.fecn      FECN bit
--   feroce.cnp.becn       BECN bit                     feroce.cnp.resv6     the 6 reserved bits
--   feroce.cnp.destqp     DestQP (24 bits)             feroce.cnp.psn       PSN (24 bits)
--   feroce.cnp.reserved   the 16 reserved bytes
--   feroce                the ICRC protocol item       feroce.icrc          ICRC found in the packet
--   feroce.icrc.computed  ICRC computed here           feroce.icrc.good     true/false
--   feroce.icrc.status    "good", "bad" or "unchecked" (packet not fully captured, or too
--                         short to hold a BTH and an ICRC)
--   feroce.pause          the PAUSE item               feroce.pause.kind    "802.3x" or "PFC"
--   feroce.pause.quanta   pause time in quanta (PFC: the longest of the enabled classes)
--   feroce.pause.us       that time in microseconds at the preference feroce.pause.rate_gbps
--                         (Gb/s, 10 by default): a quantum is 512 bit times
--   feroce.pause.resume   true when the time is 0 (XON: resume at once)
-- feroce.icrc and feroce.icrc.computed hold the CRC-32 value as zlib.crc32 returns it; on the
-- wire it is sent least-significant byte first, so infiniband.invariant.crc (which reads the
-- same 4 bytes big-endian) shows it byte-swapped.
-- Expert info: "Bad ICRC" (error, checksum group) on a mismatch, "Too short for RoCEv2" (error,
-- malformed group); nothing on a good packet. IPv6 packets: the CNP is decoded, the ICRC is not
-- checked. IPv4 fragments are not checked.
--
-- Usage: tshark -X lua_script:feroce-roce.lua ..., or copy into the personal Lua plugin folder
-- (tshark -G folders, "Personal Lua Plugins"; ~/.local/lib/wireshark/plugins on Debian 12).
-- ICRC algorithm: IBTA annex A17 / Linux rxe_icrc.c; see wireshark/README.md.

local bit32 = bit32
local band, bxor, rshift = bit32.band, bit32.bxor, bit32.rshift
local sbyte, schar, sformat = string.byte, string.char, string.format
local unpack = table.unpack or unpack

local ROCEV2_PORT = 4791
local BTH_LEN = 12
local ICRC_LEN = 4
local UDP_LEN = 8

---------------------------------------------------------------------------------------------
-- CRC-32 (IEEE 802.3 / zlib): reflected polynomial 0xEDB88320, init and final XOR 0xFFFFFFFF.
-- Table-driven; the tables are built once, when the script loads.
--
-- Lua 5.2 has no bitwise operators and each bit32 call costs, so the byte-at-a-time loop
-- (crc = T[(crc ~ byte) & 0xff] ~ (crc >> 8): four calls per byte) runs at about 300 ns per
-- byte. "Slicing by 16" (as in zlib and Linux's crc32) takes 16 bytes per step with two bit32
-- calls: the next 16 bytes, the first four XORed with the register, each look up their share
-- of the result in their own table, and the shares are XORed together. About 10 times faster.

local T = {}                 -- T[k][n]: CRC register after byte n followed by k zero bytes
T[0] = {}
for n = 0, 255 do
  local c = n
  for _ = 1, 8 do
    if band(c, 1) ~= 0 then
      c = bxor(0xEDB88320, rshift(c, 1))
    else
      c = rshift(c, 1)
    end
  end
  T[0][n] = c
end
for k = 1, 15 do
  local prev, cur = T[k - 1], {}
  for n = 0, 255 do
    cur[n] = bxor(rshift(prev[n], 8), T[0][band(prev[n], 0xff)])
  end
  T[k] = cur
end

-- Feeds the bytes of string s into the running (non-inverted) register crc; returns the new
-- register.
local function crc_update(crc, s)
  local T0, T1, T2, T3, T4, T5, T6, T7 = T[0], T[1], T[2], T[3], T[4], T[5], T[6], T[7]
  local T8, T9, T10, T11, T12, T13, T14, T15 = T[8], T[9], T[10], T[11], T[12], T[13], T[14], T[15]
  local n = #s
  local k = 1
  while k + 15 <= n do
    local b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16 = sbyte(s, k, k + 15)
    -- the register XOR the first four bytes, split into its bytes with arithmetic
    local x = bxor(crc, b1 + b2 * 256 + b3 * 65536 + b4 * 16777216)
    local x0 = x % 256
    x = (x - x0) / 256
    local x1 = x % 256
    x = (x - x1) / 256
    local x2 = x % 256
    local x3 = (x - x2) / 256
    crc = bxor(T15[x0], T14[x1], T13[x2], T12[x3], T11[b5], T10[b6], T9[b7], T8[b8],
               T7[b9], T6[b10], T5[b11], T4[b12], T3[b13], T2[b14], T1[b15], T0[b16])
    k = k + 16
  end
  while k + 3 <= n do
    local b1, b2, b3, b4 = sbyte(s, k, k + 3)
    local x = bxor(crc, b1 + b2 * 256 + b3 * 65536 + b4 * 16777216)
    local x0 = x % 256
    x = (x - x0) / 256
    local x1 = x % 256
    x = (x - x1) / 256
    local x2 = x % 256
    crc = bxor(T3[x0], T2[x1], T1[x2], T0[(x - x2) / 256])
    k = k + 4
  end
  while k <= n do
    crc = bxor(T0[band(bxor(crc, sbyte(s, k)), 0xff)], rshift(crc, 8))
    k = k + 1
  end
  return crc
end

-- The register after the 8 bytes of 0xFF that stand in for the InfiniBand LRH: a constant.
local CRC_AFTER_LRH = crc_update(0xFFFFFFFF, string.rep("\255", 8))

---------------------------------------------------------------------------------------------
-- Protocols and fields

local p_icrc = Proto("feroce", "feroce RoCEv2 ICRC")
local p_cnp = Proto("feroce.cnp", "feroce RoCEv2 CNP")

local hf = {
  cnp_opcode = ProtoField.uint8("feroce.cnp.opcode", "OpCode", base.HEX),
  cnp_pkey = ProtoField.uint16("feroce.cnp.pkey", "P_Key", base.HEX),
  cnp_fecn = ProtoField.bool("feroce.cnp.fecn", "FECN", 8, nil, 0x80),
  cnp_becn = ProtoField.bool("feroce.cnp.becn", "BECN", 8, nil, 0x40),
  cnp_resv6 = ProtoField.uint8("feroce.cnp.resv6", "Reserved (6 bits)", base.HEX, nil, 0x3f),
  cnp_destqp = ProtoField.uint24("feroce.cnp.destqp", "DestQP", base.HEX),
  cnp_psn = ProtoField.uint24("feroce.cnp.psn", "PSN", base.DEC),
  cnp_reserved = ProtoField.bytes("feroce.cnp.reserved", "Reserved (16 bytes)"),

  icrc = ProtoField.uint32("feroce.icrc", "ICRC", base.HEX),
  icrc_computed = ProtoField.uint32("feroce.icrc.computed", "Computed ICRC", base.HEX),
  icrc_good = ProtoField.bool("feroce.icrc.good", "ICRC good"),
  icrc_status = ProtoField.string("feroce.icrc.status", "ICRC status"),
}
p_cnp.fields = { hf.cnp_opcode, hf.cnp_pkey, hf.cnp_fecn, hf.cnp_becn, hf.cnp_resv6,
                 hf.cnp_destqp, hf.cnp_psn, hf.cnp_reserved }
p_icrc.fields = { hf.icrc, hf.icrc_computed, hf.icrc_good, hf.icrc_status }

local ei_bad_icrc = ProtoExpert.new("feroce.icrc.bad", "Bad ICRC",
                                    expert.group.CHECKSUM, expert.severity.ERROR)
local ei_short = ProtoExpert.new("feroce.icrc.short", "Too short for RoCEv2 (BTH + ICRC)",
                                 expert.group.MALFORMED, expert.severity.ERROR)
p_icrc.experts = { ei_bad_icrc, ei_short }

local f_udp_dstport = Field.new("udp.dstport")
local f_ip = Field.new("ip")

---------------------------------------------------------------------------------------------
-- Dissection

-- The CNP: BTH with opcode 0x81, then 16 reserved bytes.
local function dissect_cnp(src, bth, pinfo, tree)
  local avail = src:len() - bth
  local item = tree:add(p_cnp, src(bth, math.min(avail, BTH_LEN + 16)))
  item:add(hf.cnp_opcode, src(bth, 1))
  item:add(hf.cnp_pkey, src(bth + 2, 2))
  item:add(hf.cnp_fecn, src(bth + 4, 1))
  item:add(hf.cnp_becn, src(bth + 4, 1))
  item:add(hf.cnp_resv6, src(bth + 4, 1))
  local destqp = src(bth + 5, 3):uint()
  item:add(hf.cnp_destqp, src(bth + 5, 3))
  item:add(hf.cnp_psn, src(bth + 9, 3))
  if avail >= BTH_LEN + 16 then
    item:add(hf.cnp_reserved, src(bth + BTH_LEN, 16))
  end
  local b4 = src(bth + 4, 1):uint()
  local flags = ""
  if band(b4, 0x80) ~= 0 then flags = flags .. " FECN" end
  if band(b4, 0x40) ~= 0 then flags = flags .. " BECN" end
  item:append_text(sformat(", DestQP: 0x%06x%s", destqp, flags))
  pinfo.cols.info:set(sformat("CNP DestQP=0x%06x%s", destqp, flags))
end

-- Adds the ICRC subtree for the IPv4 packet at ip (header length ihl bytes, total length
-- totlen bytes) in the Tvb src.
local function check_icrc(src, ip, ihl, totlen, pinfo, tree)
  local hdrs = ihl + UDP_LEN + BTH_LEN   -- the part of the packet with masked bytes
  if totlen < hdrs + ICRC_LEN then
    local item = tree:add(p_icrc, src(ip, math.min(totlen, src:len() - ip)))
    item:add(hf.icrc_status, "unchecked"):set_generated()
    item:add_proto_expert_info(ei_short)
    item:append_text(": packet too short")
    return
  end
  if src:len() < ip + totlen then
    -- snapped capture: the bytes the CRC covers are not all there
    local item = tree:add(p_icrc, src(ip, src:len() - ip))
    item:add(hf.icrc_status, "unchecked"):set_generated()
    item:append_text(": not checked (packet not fully captured)")
    return
  end

  -- masked copy of IPv4 header + UDP header + BTH: TOS, TTL, header checksum, UDP checksum
  -- and BTH byte 4 (FECN, BECN, resv6) all ones
  local h = { sbyte(src:raw(ip, hdrs), 1, hdrs) }
  h[1 + 1] = 0xff
  h[1 + 8] = 0xff
  h[1 + 10] = 0xff
  h[1 + 11] = 0xff
  h[1 + ihl + 6] = 0xff
  h[1 + ihl + 7] = 0xff
  h[1 + ihl + UDP_LEN + 4] = 0xff
  local crc = crc_update(CRC_AFTER_LRH, schar(unpack(h)))
  local rest = totlen - hdrs - ICRC_LEN
  if rest > 0 then
    crc = crc_update(crc, src:raw(ip + hdrs, rest))
  end
  local computed = bxor(crc, 0xFFFFFFFF)

  local icrc_range = src(ip + totlen - ICRC_LEN, ICRC_LEN)
  local found = icrc_range:le_uint()
  local good = (found == computed)

  local item = tree:add(p_icrc, icrc_range)
  local found_item = item:add_le(hf.icrc, icrc_range)
  item:add(hf.icrc_computed, icrc_range, computed):set_generated()
  item:add(hf.icrc_good, good):set_generated()
  item:add(hf.icrc_status, good and "good" or "bad"):set_generated()
  if good then
    item:append_text(sformat(": 0x%08x [good]", found))
  else
    item:append_text(sformat(": 0x%08x [bad, should be 0x%08x]", found, computed))
    found_item:add_proto_expert_info(ei_bad_icrc,
      sformat("Bad ICRC: 0x%08x, should be 0x%08x", found, computed))
    pinfo.cols.info:append(" [Bad ICRC]")
  end
end

-- Finds the IPv4 header that the UDP header at udp (in src) follows: returns its offset and
-- header length, or nil (IPv6, or the UDP header lies in another data source).
local function find_ipv4(src, udp, ip_fields)
  for i = #ip_fields, 1, -1 do
    local ip = ip_fields[i].offset
    if ip < udp and ip + 20 <= udp then
      local vihl = src(ip, 1):uint()
      local ihl = band(vihl, 0x0f) * 4
      if rshift(vihl, 4) == 4 and ip + ihl == udp and src(ip + 9, 1):uint() == 17 then
        return ip, ihl
      end
    end
  end
  return nil
end

function p_icrc.dissector(tvb, pinfo, tree)
  local ports = { f_udp_dstport() }
  if #ports == 0 then return end
  local ip_fields
  for _, port in ipairs(ports) do
    if port.value == ROCEV2_PORT then
      local src = port.source
      local udp = port.offset - 2
      local bth = udp + UDP_LEN
      if src:len() >= bth + BTH_LEN and src(bth, 1):uint() == 0x81 then
        dissect_cnp(src, bth, pinfo, tree)
      end
      ip_fields = ip_fields or { f_ip() }
      local ip, ihl = find_ipv4(src, udp, ip_fields)
      if ip then
        local frag = band(src(ip + 6, 2):uint(), 0x3fff)   -- MF and fragment offset
        if frag == 0 then
          check_icrc(src, ip, ihl, src(ip + 2, 2):uint(), pinfo, tree)
        end
      end
    end
  end
end

register_postdissector(p_icrc)

---------------------------------------------------------------------------------------------
-- MAC-control PAUSE frames (stock Wireshark decodes their fields as macc.*): which kind, and
-- how long at the link's rate.

local p_pause = Proto("feroce.pause", "feroce PAUSE")
p_pause.prefs.rate_gbps = Pref.uint("Link rate (Gb/s)", 10,
                                    "The link rate the pause times are converted at")
local hf_pause = {
  kind = ProtoField.string("feroce.pause.kind", "Kind"),
  quanta = ProtoField.uint16("feroce.pause.quanta", "Pause time (quanta)"),
  us = ProtoField.double("feroce.pause.us", "Pause time (us)"),
  resume = ProtoField.bool("feroce.pause.resume", "Resume (0 quanta)"),
}
p_pause.fields = { hf_pause.kind, hf_pause.quanta, hf_pause.us, hf_pause.resume }

local f_macc_opcode = Field.new("macc.opcode")
local f_pause_time = Field.new("macc.pause_time")
local f_pfc_enbv = Field.new("macc.cbfc.enbv")
local f_pfc_time = {}
for c = 0, 7 do
  f_pfc_time[c] = Field.new("macc.cbfc.pause_time.c" .. c)
end

function p_pause.dissector(tvb, pinfo, tree)
  local op = f_macc_opcode()
  if not op then return end
  local kind, quanta, range, classes
  if op.value == 0x0001 then
    local t = f_pause_time()
    if not t then return end
    kind, quanta, range = "802.3x", t.value, t.range
  elseif op.value == 0x0101 then
    local enbv = f_pfc_enbv()
    if not enbv then return end
    kind, quanta, range, classes = "PFC", 0, enbv.range, ""
    for c = 0, 7 do
      local t = f_pfc_time[c]()
      if t and band(enbv.value, bit32.lshift(1, c)) ~= 0 then
        quanta = math.max(quanta, t.value)
        classes = classes .. sformat(" c%d=%d", c, t.value)
      end
    end
  else
    return
  end
  local rate = p_pause.prefs.rate_gbps
  local us = quanta * 512 / (rate * 1e3)
  local item = tree:add(p_pause, range)
  item:add(hf_pause.kind, kind):set_generated()
  item:add(hf_pause.quanta, quanta):set_generated()
  item:add(hf_pause.us, us):set_generated()
  item:add(hf_pause.resume, quanta == 0):set_generated()
  local what
  if quanta == 0 then
    what = sformat("%s PAUSE 0 (resume)%s", kind, classes or "")
  else
    what = sformat("%s PAUSE %d quanta (%.1f us at %d Gb/s)%s", kind, quanta, us, rate,
                   classes or "")
  end
  item:append_text(": " .. what)
  pinfo.cols.info:set(what)
end

register_postdissector(p_pause)
