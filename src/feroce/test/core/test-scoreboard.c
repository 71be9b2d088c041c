/*
 * test-scoreboard.c - the golden-model scoreboard: when it compares, what it
 * reports for the first mismatch, and refused settings.
 */
#include "check.h"
#include "core-tests.h"
#include "feroce-scoreboard.h"

void
test_scoreboard(void)
{
    struct feroce_rp_params rules;
    struct feroce_rp_fixed_format fmt;
    struct feroce_rp_fixed_params p;
    struct feroce_rp_fixed_state dut;
    struct feroce_sb_params sp = {100, FEROCE_SB_ALL};
    struct feroce_sb_state sb;
    struct feroce_sb_regs d;
    struct feroce_check why;
    char msg[400];
    int64_t c;
    int compared = 0;

    CHECK_EQ(feroce_rp_preset(&rules, "connectx", 10e9, NULL), FEROCE_OK);
    CHECK_EQ(feroce_rp_fixed_format_preset(&fmt, "default", NULL), FEROCE_OK);
    CHECK_EQ(feroce_rp_fixed_build(&p, &rules, &fmt, NULL), FEROCE_OK);
    CHECK_EQ(feroce_sb_validate(&sp, NULL), FEROCE_OK);
    feroce_sb_init(&sb, &p, 0);
    feroce_rp_fixed_init(&dut, &p, 0);

    /* a device that is the golden model: every comparison agrees; events and every 100 cycles
     * compared */
    for (c = 0; c < 1000; c++)
    {
        if (c == 10 || c == 500)
        {
            feroce_rp_fixed_cnp(&dut, &p, c);
            feroce_sb_cnp(&sb, &p, c);
        }
        if (c == 250)
        {
            feroce_rp_fixed_tx(&dut, &p, c, 4154);
            feroce_sb_tx(&sb, &p, c, 4154);
        }
        feroce_rp_fixed_advance(&dut, &p, c);
        d.rc = dut.cur.rc;
        d.rt = dut.cur.rt;
        d.alpha = dut.cur.alpha;
        compared += feroce_sb_check(&sb, &p, &sp, c, &d) == 1;
    }
    CHECK_EQ(compared, 12); /* cycles 0, 100, ..., 900 and the events at 10, 250 (500 is both) */
    CHECK_EQ(sb.mismatches, 0);
    CHECK(sb.golden.cur.rc < p.line); /* the cuts happened */
    feroce_sb_message(&sb, &p, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "no mismatch in 12 comparisons");

    /* one LSB off: reported with cycle, register, expected and actual; later failures only counted
     */
    d.rc++;
    CHECK_EQ(feroce_sb_check(&sb, &p, &sp, 1000, &d), -1);
    d.rc--;
    d.alpha++;
    CHECK_EQ(feroce_sb_check(&sb, &p, &sp, 1100, &d), -1);
    CHECK_EQ(sb.mismatches, 2);
    CHECK_EQ(sb.first.cycle, 1000);
    CHECK_EQ(sb.first.reg, FEROCE_SB_RC);
    CHECK_EQ(sb.first.actual, sb.first.expected + 1);
    feroce_sb_message(&sb, &p, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "first mismatch at cycle 1000 (6400 ns): rc expected ");
    CHECK_STR_CONTAINS(msg, "2 of 14 comparisons failed");
    /* only alpha compared: the rc error is not seen */
    sp.compare = FEROCE_SB_ALPHA;
    feroce_rp_fixed_advance(&dut, &p, 1200);
    d.alpha = dut.cur.alpha;
    d.rc = dut.cur.rc + 1;
    CHECK_EQ(feroce_sb_check(&sb, &p, &sp, 1200, &d), 1);
    /* time goes forward only; bad settings are named */
    CHECK_EQ(feroce_sb_check(&sb, &p, &sp, 10, &d), -2);
    CHECK_EQ(feroce_sb_cnp(&sb, &p, 10), FEROCE_E_TIME_BACKWARDS);
    sp.check_every = -1;
    CHECK_EQ(feroce_sb_validate(&sp, &why), FEROCE_E_BAD_VALUE);
    feroce_check_message(&why, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "check_every = -1 is not allowed");
    sp.check_every = 0;
    sp.compare = 8;
    CHECK_EQ(feroce_sb_validate(&sp, &why), FEROCE_E_BAD_VALUE);
}
