/*
 * core-tests.c - runs the C core's unit tests.
 *
 *   feroce-core-tests DATA_DIR [TEST_NAME]
 *
 * DATA_DIR holds the known-answer vectors (rp-*.txt, icrc.txt).  Ends with the line
 * "N passed, N failed"; the exit status is non-zero on any failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core-tests.h"

const char *test_data_dir = ".";

#define TEST(name)                                                                                           \
    {                                                                                                        \
#name, name                                                                                          \
    }
static const struct {
    const char *name;
    void (*run)(void);
} tests[] = {
    TEST(test_rp_initial_state),
    TEST(test_rp_first_cnp_paper),
    TEST(test_rp_min_rate_floor),
    TEST(test_rp_clamp_policies),
    TEST(test_rp_stages_byte_counter),
    TEST(test_rp_stages_timer_only),
    TEST(test_rp_hai_linear),
    TEST(test_rp_caps),
    TEST(test_rp_first_cnp_rate_on_cnp),
    TEST(test_rp_first_cnp_rate_periodic),
    TEST(test_rp_decrease_period),
    TEST(test_rp_on_cnp_with_decrease_period),
    TEST(test_rp_periodic_alpha),
    TEST(test_rp_same_instant_order),
    TEST(test_rp_time_backwards),
    TEST(test_rp_long_idle),
    TEST(test_rp_next_deadline),
    TEST(test_rp_presets),
    TEST(test_rp_set_param),
    TEST(test_rp_vectors),
    TEST(test_rp_lazy_equals_reference),
    TEST(test_rp_lazy_settled_long_gap),
    TEST(test_rp_lazy_settled_many_bytes),
    TEST(test_rp_lazy_rare_sender),
    TEST(test_rp_fixed_presets),
    TEST(test_rp_fixed_set_format),
    TEST(test_rp_fixed_validation),
    TEST(test_rp_fixed_clock),
    TEST(test_rp_fixed_recipe),
    TEST(test_rp_fixed_increase_stages),
    TEST(test_rp_fixed_alpha_floor),
    TEST(test_rp_fixed_time_backwards),
    TEST(test_rp_fixed_lazy_equals_stepped),
    TEST(test_rp_fixed_follows_float),
    TEST(test_rp_fixed_random_formats),
    TEST(test_np_moderation),
    TEST(test_cp_probability),
    TEST(test_cp_marking),
    TEST(test_cp_marking_statistics),
    TEST(test_pfc_static),
    TEST(test_pfc_dynamic),
    TEST(test_validation_errors),
    TEST(test_crc32_reference),
    TEST(test_crc32_zeros),
    TEST(test_icrc_vectors),
    TEST(test_wire_opcodes),
    TEST(test_wire_known_frames),
    TEST(test_wire_round_trip),
    TEST(test_wire_padded_frames),
    TEST(test_pfc_round_trip),
    TEST(test_wire_truncation),
    TEST(test_wire_random_input),
    TEST(test_wire_encode_errors),
    TEST(test_wire_helpers),
    TEST(test_emu_single_frame_timing),
    TEST(test_emu_incast_marks_and_moderates),
    TEST(test_emu_refuses_bad_input),
    TEST(test_scoreboard),
};

int main(int argc, char **argv)
{
    size_t i;
    int ran = 0;

    if (argc > 1)
        test_data_dir = argv[1];
    for (i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        long before = check_failed;

        if (argc > 2 && strcmp(argv[2], tests[i].name) != 0)
            continue;
        tests[i].run();
        ran++;
        printf("%-40s %s\n", tests[i].name, check_failed == before ? "ok" : "FAILED");
    }
    if (ran == 0) {
        fprintf(stderr, "no test named %s\n", argc > 2 ? argv[2] : "?");
        return 2;
    }
    printf("%ld passed, %ld failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
