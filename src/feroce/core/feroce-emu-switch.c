/*
 * feroce-emu-switch.c - the emulated DCQCN switch and receiver (feroce-emu-switch.h).
 *
 * A small discrete-event loop over four kinds of events, in picoseconds so
 * that serialization times do not accumulate rounding: a DUT frame reaching
 * the queue, a virtual sender's frame reaching the queue, a CNP reaching a
 * virtual sender, and the egress wire taking the next frame.  Each event
 * either consumes a queued item or moves a time forward by at least one
 * frame time, so a call does work in proportion to the time it covers.
 */
#include "feroce-emu-switch.h"

#include <math.h>
#include <string.h>

#include "feroce-icrc.h"
#include "feroce-wire.h"

#define PS_PER_NS 1000

/* ---- parameters ------------------------------------------------------------ */

enum feroce_err feroce_emu_preset(struct feroce_emu_params *p, const char *name, struct feroce_check *why)
{
    enum feroce_err e;

    memset(p, 0, sizeof *p);
    if ((e = feroce_cp_preset(&p->cp, name, 10e9, why)) != FEROCE_OK)
        return e;
    if ((e = feroce_np_preset(&p->np, name, why)) != FEROCE_OK)
        return e;
    if ((e = feroce_rp_preset(&p->sender_rp, "connectx", 10e9, why)) != FEROCE_OK)
        return e;
    p->egress_rate_bps = 10e9;
    p->dut_link_rate_bps = 10e9;
    p->senders = 2;
    p->sender_rate_bps = 10e9;
    p->sender_frame_len = 4096 + 74; /* RDMA WRITE Middle of PMTU 4096 (spec/rocev2-wire.md) */
    p->sender_dcqcn = 1;
    p->buffer_bytes = 2000000;
    p->link_delay_ns = 1000;
    p->np_delay_ns = 1000;
    p->dut_qpn = 1;
    p->seed = 1;
    return FEROCE_OK;
}

enum feroce_err feroce_emu_validate(const struct feroce_emu_params *p, struct feroce_check *why)
{
    enum feroce_err e;

    if (!(p->egress_rate_bps >= 1e6 && p->egress_rate_bps <= 1e13))
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "egress_rate_bps", p->egress_rate_bps, "[1e6, 1e13] b/s");
    if (!(p->dut_link_rate_bps >= 1e6 && p->dut_link_rate_bps <= 1e13))
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "dut_link_rate_bps", p->dut_link_rate_bps,
                           "[1e6, 1e13] b/s");
    if (p->senders > FEROCE_EMU_MAX_SENDERS)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "senders", p->senders, "0..%d virtual senders",
                           FEROCE_EMU_MAX_SENDERS);
    if (p->senders > 0) {
        if (!(p->sender_rate_bps >= 1e6 && p->sender_rate_bps <= 1e13))
            return feroce_fail(why, FEROCE_E_BAD_VALUE, "sender_rate_bps", p->sender_rate_bps,
                               "[1e6, 1e13] b/s");
        if (p->sender_frame_len < 64 || p->sender_frame_len > 9018)
            return feroce_fail(why, FEROCE_E_BAD_VALUE, "sender_frame_len", p->sender_frame_len,
                               "64..9018 bytes (a frame without FCS)");
        if (p->sender_dcqcn != 0 && p->sender_dcqcn != 1)
            return feroce_fail(why, FEROCE_E_BAD_VALUE, "sender_dcqcn", p->sender_dcqcn, "0 or 1");
        if (p->sender_dcqcn && (e = feroce_rp_validate(&p->sender_rp, why)) != FEROCE_OK)
            return e;
    }
    if ((e = feroce_cp_validate(&p->cp, why)) != FEROCE_OK)
        return e;
    if ((e = feroce_np_validate(&p->np, why)) != FEROCE_OK)
        return e;
    if (p->buffer_bytes < 9022)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "buffer_bytes", (double)p->buffer_bytes,
                           ">= 9022 (one jumbo frame with FCS)");
    if (p->link_delay_ns < 0 || p->link_delay_ns > 1000000000)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "link_delay_ns", (double)p->link_delay_ns, "0..1e9 ns");
    if (p->np_delay_ns < 0 || p->np_delay_ns > 1000000000)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "np_delay_ns", (double)p->np_delay_ns, "0..1e9 ns");
    if (p->dut_qpn > FEROCE_PSN_MASK)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "dut_qpn", p->dut_qpn, "0..16777215 (24 bits)");
    return FEROCE_OK;
}

/* ---- helpers --------------------------------------------------------------- */

/* splitmix64 (Steele, Lea, Flood 2014): a uniform draw in [0, 1) with 53 bits */
static double draw(struct feroce_emu_state *s)
{
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* Time a frame of len bytes (no FCS) occupies a wire of rate bps, with preamble, FCS and gap, in ps. */
static int64_t wire_ps(size_t len, double bps)
{
    return (int64_t)llround((double)feroce_wire_bytes(len) * 8e12 / bps);
}

static int64_t ceil_ns(int64_t ps)
{
    return ps >= 0 ? (ps + PS_PER_NS - 1) / PS_PER_NS : ps / PS_PER_NS;
}

/* ---- answers to the DUT ----------------------------------------------------- */

static void put_answer(struct feroce_emu_state *s, const struct feroce_emu_output *o)
{
    uint32_t i, n, at, prev;

    if (s->out_count == FEROCE_EMU_OUT_CAP) {
        s->stats.answers_lost++;
        return;
    }
    /* keep time order: an ACK (shorter) can overtake the CNP of the frame before it */
    n = s->out_count++;
    at = (s->out_head + n) % FEROCE_EMU_OUT_CAP;
    for (i = n; i > 0; i--) {
        prev = (s->out_head + i - 1) % FEROCE_EMU_OUT_CAP;
        if (s->out[prev].t_ns <= o->t_ns)
            break;
        s->out[at] = s->out[prev];
        at = prev;
    }
    s->out[at] = *o;
}

/* A CNP or ACK from the receiver to the DUT, leaving the receiver at t_ps. */
static void answer(struct feroce_emu_state *s, const struct feroce_emu_params *p, int kind, uint32_t psn,
                   int64_t t_ps)
{
    struct feroce_emu_output o;
    struct feroce_roce f;
    size_t ip_off, n;

    feroce_roce_init(&f, kind == FEROCE_EMU_CNP ? FEROCE_OP_CNP : FEROCE_OP_ACK);
    memcpy(f.eth.dst, s->dut_mac, 6);
    memcpy(f.eth.src, s->rx_mac, 6);
    f.ip.src = s->rx_ip;
    f.ip.dst = s->dut_ip;
    f.bth.destqp = p->dut_qpn;
    if (kind == FEROCE_EMU_CNP) {
        f.ip.dscp = 48; /* spec/rocev2-wire.md "CNP": DSCP 48, UDP source port 0, PSN 0 */
        f.udp.sport = 0;
    } else {
        f.bth.psn = psn;
        f.aeth.syndrome = FEROCE_AETH_ACK(FEROCE_AETH_CREDITS_NONE);
        f.aeth.msn = s->msn;
    }
    memset(&o, 0, sizeof o);
    if (feroce_roce_encode(&f, o.frame, sizeof o.frame) != FEROCE_WIRE_OK)
        return; /* cannot happen: every field is in range */
    n = feroce_roce_header_len(&f);
    ip_off = FEROCE_ETH_LEN;
    feroce_icrc_put(o.frame + n, feroce_icrc(o.frame + ip_off, n - ip_off));
    n += FEROCE_ICRC_LEN;
    o.len = (uint32_t)(n < FEROCE_MIN_FRAME_LEN ? FEROCE_MIN_FRAME_LEN : n); /* zero padded */
    o.kind = kind;
    o.psn = psn;
    /* receiver -> switch -> DUT: two links, serialized at the egress rate then the DUT's */
    t_ps += 2 * p->link_delay_ns * PS_PER_NS + wire_ps(o.len, p->egress_rate_bps) +
            wire_ps(o.len, p->dut_link_rate_bps);
    o.t_ns = ceil_ns(t_ps);
    put_answer(s, &o);
    if (kind == FEROCE_EMU_CNP)
        s->stats.cnps_to_dut++;
    else
        s->stats.acks_to_dut++;
}

/* ---- the queue -------------------------------------------------------------- */

static void enqueue(struct feroce_emu_state *s, const struct feroce_emu_params *p,
                    struct feroce_emu_slot slot)
{
    int dut = slot.src == 0;

    if (s->q_count == FEROCE_EMU_QUEUE_CAP || s->q_bytes + slot.bytes > p->buffer_bytes) {
        if (dut)
            s->stats.dut_dropped++;
        else
            s->stats.sender_dropped++;
        return;
    }
    /* the enqueue marking point sees the bytes already queued */
    slot.marked =
        (uint8_t)feroce_cp_mark(&p->cp, FEROCE_MARK_ENQUEUE, (enum feroce_ecn)slot.ecn, s->q_bytes, draw(s));
    s->queue[(s->q_head + s->q_count) % FEROCE_EMU_QUEUE_CAP] = slot;
    s->q_count++;
    s->q_bytes += slot.bytes;
    if (s->q_bytes > s->stats.queue_max_bytes)
        s->stats.queue_max_bytes = s->q_bytes;
}

/* The egress wire takes the head frame at t_ps; the receiver gets it one frame time and one link later. */
static void serve(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t t_ps)
{
    struct feroce_emu_slot slot = s->queue[s->q_head];
    struct feroce_np_state *np;
    int64_t rx_ps;
    int ce;

    s->q_head = (s->q_head + 1) % FEROCE_EMU_QUEUE_CAP;
    s->q_count--;
    s->q_bytes -= slot.bytes;
    /* the dequeue marking point sees the bytes left behind */
    if (feroce_cp_mark(&p->cp, FEROCE_MARK_DEQUEUE, (enum feroce_ecn)slot.ecn, s->q_bytes, draw(s)))
        slot.marked = 1;
    s->busy_until_ps = t_ps + wire_ps(slot.bytes - 4, p->egress_rate_bps);
    rx_ps = s->busy_until_ps + p->link_delay_ns * PS_PER_NS;
    ce = slot.marked || slot.ecn == FEROCE_ECN_CE;
    if (slot.src == 0) {
        s->stats.dut_frames++;
        s->stats.dut_bytes += slot.bytes - 4;
        s->stats.dut_marked += slot.marked;
        s->msn = (s->msn + 1) & FEROCE_PSN_MASK;
    } else {
        s->stats.sender_bytes[slot.src - 1] += slot.bytes - 4;
        s->stats.sender_marked += slot.marked;
    }
    np = feroce_np_select(&p->np, &s->np_qp[slot.src], &s->np_port);
    if (ce && feroce_np_on_ce(&p->np, np, ceil_ns(rx_ps))) {
        int64_t leave_ps = rx_ps + p->np_delay_ns * PS_PER_NS;

        if (slot.src == 0) {
            answer(s, p, FEROCE_EMU_CNP, 0, leave_ps);
        } else if (p->sender_dcqcn) {
            /* to the virtual sender, whose next frames need one more link to reach the queue */
            if (s->cnp_count < FEROCE_EMU_CNP_CAP) {
                uint32_t at = (s->cnp_head + s->cnp_count++) % FEROCE_EMU_CNP_CAP;

                s->cnp_at_ps[at] = leave_ps + 3 * p->link_delay_ns * PS_PER_NS;
                s->cnp_to[at] = (uint8_t)(slot.src - 1);
            }
            s->stats.cnps_to_senders++;
        }
    }
    if (slot.src == 0 && slot.ackreq)
        answer(s, p, FEROCE_EMU_ACK, slot.psn, rx_ps + p->np_delay_ns * PS_PER_NS);
}

/* ---- the event loop --------------------------------------------------------- */

static double sender_rate(const struct feroce_emu_state *s, const struct feroce_emu_params *p, uint32_t i)
{
    double r = p->sender_rate_bps;

    if (p->sender_dcqcn && feroce_rp_rate(&s->rp[i]) < r)
        r = feroce_rp_rate(&s->rp[i]);
    return r;
}

/* Process every event at or before t_ps, in time order. */
static void run_to(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t t_ps)
{
    for (;;) {
        int64_t t = INT64_MAX;
        int kind = -1;
        uint32_t i, who = 0;

        /* ties: CNPs reach senders first, then frames reach the queue, then the wire takes one */
        if (s->cnp_count && s->cnp_at_ps[s->cnp_head] < t) {
            t = s->cnp_at_ps[s->cnp_head];
            kind = 0;
        }
        if (s->in_count && s->inflight_at_ps[s->in_head] < t) {
            t = s->inflight_at_ps[s->in_head];
            kind = 1;
        }
        for (i = 0; i < p->senders; i++) {
            if (s->next_send_ps[i] < t) {
                t = s->next_send_ps[i];
                kind = 2;
                who = i;
            }
        }
        if (s->q_count) {
            int64_t start = s->busy_until_ps > s->now_ps ? s->busy_until_ps : s->now_ps;

            if (start < t) {
                t = start;
                kind = 3;
            }
        }
        if (kind < 0 || t > t_ps)
            break;
        if (t > s->now_ps)
            s->now_ps = t;
        switch (kind) {
        case 0: {
            uint32_t to = s->cnp_to[s->cnp_head];

            s->cnp_head = (s->cnp_head + 1) % FEROCE_EMU_CNP_CAP;
            s->cnp_count--;
            feroce_rp_cnp(&s->rp[to], &p->sender_rp, ceil_ns(t));
            break;
        }
        case 1:
            enqueue(s, p, s->inflight[s->in_head]);
            s->in_head = (s->in_head + 1) % FEROCE_EMU_QUEUE_CAP;
            s->in_count--;
            break;
        case 2: {
            struct feroce_emu_slot slot = { p->sender_frame_len + 4, 0, (uint8_t)(who + 1),
                                            FEROCE_ECN_ECT0,         0, 0 };
            int64_t t_ns = ceil_ns(t);

            if (p->sender_dcqcn) {
                feroce_rp_advance(&s->rp[who], &p->sender_rp, t_ns);
                feroce_rp_tx(&s->rp[who], &p->sender_rp, t_ns, p->sender_frame_len);
            }
            enqueue(s, p, slot);
            s->next_send_ps[who] = t + wire_ps(p->sender_frame_len, sender_rate(s, p, who));
            break;
        }
        default:
            serve(s, p, t);
            break;
        }
    }
    if (t_ps > s->now_ps)
        s->now_ps = t_ps;
}

/* ---- the interface ------------------------------------------------------------ */

void feroce_emu_init(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t now)
{
    uint32_t i;

    memset(s, 0, sizeof *s);
    now = now < 0 ? 0 : now > FEROCE_EMU_TIME_MAX ? FEROCE_EMU_TIME_MAX : now;
    s->now = now;
    s->now_ps = now * PS_PER_NS;
    s->rng = p->seed;
    s->busy_until_ps = s->now_ps;
    s->dut_link_free_ps = s->now_ps;
    for (i = 0; i <= FEROCE_EMU_MAX_SENDERS; i++)
        feroce_np_init(&s->np_qp[i]);
    feroce_np_init(&s->np_port);
    for (i = 0; i < p->senders && i < FEROCE_EMU_MAX_SENDERS; i++) {
        if (p->sender_dcqcn)
            feroce_rp_init(&s->rp[i], &p->sender_rp, now);
        /* the first frame of each reaches the queue after one frame time and one link */
        s->next_send_ps[i] =
            s->now_ps + wire_ps(p->sender_frame_len, p->sender_rate_bps) + p->link_delay_ns * PS_PER_NS;
    }
}

/* feroce_time_check with the switch's smaller range */
static enum feroce_err emu_time_check(const struct feroce_emu_state *s, int64_t now)
{
    return now > FEROCE_EMU_TIME_MAX ? FEROCE_E_TIME_RANGE : feroce_time_check(s->now, now);
}

enum feroce_err feroce_emu_advance(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t now)
{
    enum feroce_err e = emu_time_check(s, now);

    if (e != FEROCE_OK)
        return e;
    s->now = now;
    run_to(s, p, now * PS_PER_NS);
    return FEROCE_OK;
}

enum feroce_err feroce_emu_dut_frame(struct feroce_emu_state *s, const struct feroce_emu_params *p,
                                     int64_t now, const uint8_t *frame, size_t len, struct feroce_check *why)
{
    struct feroce_roce f;
    struct feroce_emu_slot slot;
    enum feroce_wire_err we;
    enum feroce_err e;
    int64_t start;

    if ((e = emu_time_check(s, now)) != FEROCE_OK)
        return feroce_fail(why, e, "now", (double)now, "[%lld, %lld] ns (the last call's instant and later)",
                           (long long)s->now, (long long)FEROCE_EMU_TIME_MAX);
    we = feroce_roce_decode(&f, frame, len, len, NULL);
    if (we != FEROCE_WIRE_OK)
        return feroce_fail_text(why, FEROCE_E_BAD_VALUE, "frame", feroce_wire_err_name(we),
                                "a RoCEv2 frame that feroce_roce_decode accepts");
    if (s->in_count == FEROCE_EMU_QUEUE_CAP)
        return feroce_fail(why, FEROCE_E_BAD_VALUE, "now", (double)now,
                           "a later start: %d frames are already queued on the DUT's link",
                           FEROCE_EMU_QUEUE_CAP);
    if ((e = feroce_emu_advance(s, p, now)) != FEROCE_OK)
        return e;
    memcpy(s->dut_mac, f.eth.src, 6);
    memcpy(s->rx_mac, f.eth.dst, 6);
    s->dut_ip = f.ip.src;
    s->rx_ip = f.ip.dst;
    start = now * PS_PER_NS > s->dut_link_free_ps ? now * PS_PER_NS : s->dut_link_free_ps;
    s->dut_link_free_ps = start + wire_ps(len, p->dut_link_rate_bps);
    slot.bytes = (uint32_t)len + 4;
    slot.psn = f.bth.psn;
    slot.src = 0;
    slot.ecn = f.ip.ecn;
    slot.ackreq = f.bth.ackreq;
    slot.marked = 0;
    s->inflight[(s->in_head + s->in_count) % FEROCE_EMU_QUEUE_CAP] = slot;
    s->inflight_at_ps[(s->in_head + s->in_count) % FEROCE_EMU_QUEUE_CAP] =
        s->dut_link_free_ps + p->link_delay_ns * PS_PER_NS;
    s->in_count++;
    return FEROCE_OK;
}

int feroce_emu_take(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t until,
                    struct feroce_emu_output *out)
{
    if (until > feroce_emu_horizon(s, p))
        until = feroce_emu_horizon(s, p);
    if (!s->out_count || s->out[s->out_head].t_ns > until)
        return 0;
    *out = s->out[s->out_head];
    s->out_head = (s->out_head + 1) % FEROCE_EMU_OUT_CAP;
    s->out_count--;
    return 1;
}

int feroce_emu_poll(struct feroce_emu_state *s, const struct feroce_emu_params *p, int64_t now,
                    struct feroce_emu_output *out)
{
    if (feroce_emu_advance(s, p, now) != FEROCE_OK)
        now = s->now; /* a late poll still returns what is due */
    return feroce_emu_take(s, p, now, out);
}

int64_t feroce_emu_next_answer(const struct feroce_emu_state *s)
{
    return s->out_count ? s->out[s->out_head].t_ns : FEROCE_NEVER;
}
