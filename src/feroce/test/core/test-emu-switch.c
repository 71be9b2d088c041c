/*
 * test-emu-switch.c - the emulated DCQCN switch and receiver: timing of one
 * uncongested frame, ACKs and CNPs as real frames, an incast that marks,
 * determinism by seed, and refused input.
 */
#include "check.h"
#include "core-tests.h"
#include "feroce-emu-switch.h"
#include "feroce-icrc.h"
#include "feroce-wire.h"

#include <stdlib.h>

/* an RDMA WRITE Middle of 4096 B (4154 B without FCS) from 10.0.0.1 */
static size_t
dut_frame(uint8_t* buf, uint32_t psn, int ackreq)
{
    struct feroce_roce f;
    size_t n;

    feroce_roce_init(&f, FEROCE_OP_WRITE_MIDDLE);
    f.eth.src[5] = 1;
    f.eth.dst[5] = 2;
    f.ip.src = 0x0a000001;
    f.ip.dst = 0x0a000002;
    f.bth.destqp = 0x22;
    f.bth.psn = psn;
    f.bth.ackreq = (uint8_t)ackreq;
    f.payload_len = 4096;
    feroce_roce_set_lengths(&f);
    n = feroce_roce_header_len(&f);
    feroce_roce_encode(&f, buf, n);
    memset(buf + n, 0, 4096);
    feroce_icrc_put(buf + n + 4096, feroce_icrc(buf + 14, n + 4096 - 14));
    return n + 4096 + 4;
}

static struct feroce_emu_state s;

void
test_emu_single_frame_timing(void)
{
    struct feroce_emu_params p;
    struct feroce_emu_output o;
    struct feroce_roce f;
    uint8_t frame[5000];
    size_t len = dut_frame(frame, 7, 1);

    CHECK_EQ(feroce_emu_preset(&p, "paper", NULL), FEROCE_OK);
    p.senders = 0;
    CHECK_EQ(feroce_emu_validate(&p, NULL), FEROCE_OK);
    feroce_emu_init(&s, &p, 0);
    CHECK_EQ(len, 4154);
    CHECK_EQ(feroce_emu_dut_frame(&s, &p, 100, frame, len, NULL), FEROCE_OK);
    /*
     * 4178 B on each 10 Gb/s wire = 3342.4 ns; DUT link, 1 us, egress, 1 us to the receiver,
     * 1 us NP delay, back over two links (1 us each) as a 62-B ACK (86 B: 68.8 ns per wire):
     * 100 + 6684.8 + 5000 + 137.6 = 11922.4 ns, reported as the next whole ns
     */
    CHECK_EQ(feroce_emu_next_answer(&s), FEROCE_NEVER);
    /* known two link delays ahead: taken without running the switch, not beyond the horizon */
    CHECK_EQ(feroce_emu_advance(&s, &p, 9000), FEROCE_OK);
    CHECK_EQ(feroce_emu_next_answer(&s), 11923);
    CHECK_EQ(feroce_emu_horizon(&s, &p), 11000);
    CHECK_EQ(feroce_emu_take(&s, &p, 11923, &o), 0);
    CHECK_EQ(feroce_emu_advance(&s, &p, 9923), FEROCE_OK);
    CHECK_EQ(feroce_emu_take(&s, &p, 11922, &o), 0);
    CHECK_EQ(feroce_emu_take(&s, &p, 11923, &o), 1);
    CHECK_EQ(o.t_ns, 11923);
    CHECK_EQ(s.now, 9923);
    feroce_emu_init(&s, &p, 0);
    CHECK_EQ(feroce_emu_dut_frame(&s, &p, 100, frame, len, NULL), FEROCE_OK);
    CHECK_EQ(feroce_emu_poll(&s, &p, 11922, &o), 0);
    CHECK_EQ(feroce_emu_next_answer(&s), 11923);
    CHECK_EQ(feroce_emu_poll(&s, &p, 11923, &o), 1);
    CHECK_EQ(o.kind, FEROCE_EMU_ACK);
    CHECK_EQ(o.t_ns, 11923);
    CHECK_EQ(o.len, 62);
    CHECK_EQ(feroce_icrc_check(o.frame, o.len, NULL, NULL), 1);
    CHECK_EQ(feroce_roce_decode(&f, o.frame, o.len, o.len, NULL), FEROCE_WIRE_OK);
    CHECK_EQ(f.bth.opcode, FEROCE_OP_ACK);
    CHECK_EQ(f.bth.psn, 7);
    CHECK_EQ(f.bth.destqp, p.dut_qpn);
    CHECK_EQ(f.aeth.msn, 1);
    CHECK_EQ(f.ip.dst, 0x0a000001); /* back to the DUT */
    CHECK_EQ(f.eth.dst[5], 1);
    CHECK_EQ(feroce_emu_poll(&s, &p, 30000, &o), 0);
    CHECK_EQ(s.stats.dut_frames, 1);
    CHECK_EQ(s.stats.dut_bytes, 4154);
    CHECK_EQ(s.stats.dut_marked, 0);
    CHECK_EQ(s.stats.queue_max_bytes, 4158);
}

/* a DUT at line rate beside two constant 10 Gb/s senders for 2 ms; returns the CNPs sent to it */
static uint64_t
incast(uint64_t seed, struct feroce_emu_stats* st)
{
    struct feroce_emu_params p;
    struct feroce_emu_output o;
    struct feroce_roce f;
    static uint8_t frame[5000];
    size_t len = dut_frame(frame, 0, 0);
    int64_t t, last = -1;
    uint64_t cnps = 0;

    feroce_emu_preset(&p, "paper", NULL);
    p.sender_dcqcn = 0;
    p.buffer_bytes = 20000000;
    p.seed = seed;
    p.cp.kmax_bytes = 6000000; /* a long ramp: the draws decide */
    p.cp.pmax = 1;
    feroce_emu_init(&s, &p, 0);
    for (t = 0; t < 2000000; t += 3343)
    {
        CHECK_EQ(feroce_emu_dut_frame(&s, &p, t, frame, len, NULL), FEROCE_OK);
        while (feroce_emu_poll(&s, &p, t, &o))
        {
            if (o.t_ns < last || o.t_ns > t || o.kind != FEROCE_EMU_CNP)
                CHECK(0);
            last = o.t_ns;
            CHECK_EQ(feroce_roce_decode(&f, o.frame, o.len, o.len, NULL), FEROCE_WIRE_OK);
            CHECK_EQ(f.bth.opcode, FEROCE_OP_CNP);
            CHECK_EQ(f.ip.dscp, 48);
            CHECK_EQ(feroce_icrc_check(o.frame, o.len, NULL, NULL), 1);
            cnps++;
        }
    }
    *st = s.stats;
    return cnps + s.out_count; /* with those not yet due */
}

void
test_emu_incast_marks_and_moderates(void)
{
    struct feroce_emu_stats a, b, c;
    uint64_t n = incast(1, &a);

    /* 30 Gb/s into 10: the queue grows by ~2 x 10 Gb/s x 2 ms = 5 MB, marked all along above Kmax
     */
    CHECK(a.queue_max_bytes > 4000000 && a.queue_max_bytes < 5500000);
    CHECK(a.dut_marked > 20);
    CHECK_EQ(a.dut_dropped + a.sender_dropped, 0);
    /* the NP moderates to at most one CNP per 50 us: fewer than 2 ms / 50 us + 1 */
    CHECK(n > 5 && n <= 41);
    CHECK_EQ(n, a.cnps_to_dut);
    /* the egress carried 2 ms x 10 Gb/s minus the start, in thirds */
    CHECK(a.dut_bytes + a.sender_bytes[0] + a.sender_bytes[1] > 2300000);
    CHECK(a.dut_bytes > 700000 && a.sender_bytes[0] > 700000);
    /* same seed, same run; another seed marks other frames */
    incast(1, &b);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    incast(2, &c);
    CHECK(c.dut_marked != a.dut_marked || c.sender_marked != a.sender_marked);
}

void
test_emu_refuses_bad_input(void)
{
    struct feroce_emu_params p;
    struct feroce_check why;
    char msg[300];
    uint8_t frame[5000];
    size_t len = dut_frame(frame, 0, 0);

    feroce_emu_preset(&p, "paper", NULL);
    p.senders = 17;
    CHECK_EQ(feroce_emu_validate(&p, &why), FEROCE_E_BAD_VALUE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "senders = 17 is not allowed: expected 0..16");
    feroce_emu_preset(&p, "paper", NULL);
    p.cp.pmax = 2;
    CHECK_EQ(feroce_emu_validate(&p, &why), FEROCE_E_CP_PMAX);
    feroce_emu_preset(&p, "paper", NULL);
    p.sender_rp.g = 0;
    CHECK_EQ(feroce_emu_validate(&p, &why), FEROCE_E_RP_G);
    CHECK_EQ(feroce_emu_preset(&p, "fast", &why), FEROCE_E_UNKNOWN_PRESET);

    feroce_emu_preset(&p, "paper", NULL);
    feroce_emu_init(&s, &p, 1000);
    CHECK_EQ(feroce_emu_dut_frame(&s, &p, 999, frame, len, &why), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(feroce_emu_dut_frame(&s, &p, 1000, frame, 30, &why), FEROCE_E_BAD_VALUE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "frame = \"FEROCE_WIRE_TRUNCATED\" is not allowed");
    CHECK_EQ(feroce_emu_advance(&s, &p, 500), FEROCE_E_TIME_BACKWARDS);
    CHECK_EQ(feroce_emu_advance(&s, &p, FEROCE_EMU_TIME_MAX + 1), FEROCE_E_TIME_RANGE);
    CHECK_EQ(feroce_emu_dut_frame(&s, &p, INT64_MAX, frame, len, &why), FEROCE_E_TIME_RANGE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg,
                       "now = 9.2233720368547758e+18 is not allowed: expected [1000, 4611686018427387] ns");
    /* a late poll answers for the last instant instead of failing */
    CHECK_EQ(feroce_emu_advance(&s, &p, 100000000), FEROCE_OK); /* 100 ms of incast in one call */
    CHECK(s.stats.sender_bytes[0] > 0);
}
