/*
 * core-tests.c - runs the C core's unit tests.
 *
 *   feroce-core-tests DATA_DIR [TEST_NAME]
 *
 * DATA_DIR holds the known-answer vectors (rp-*.txt, icrc.txt).  Ends with the line
 * "N passed, N failed"; the exit status is non-zero on any failure.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core-tests.h"

const char *test_data_dir = ".";

static const struct check_test tests[] = {
    CHECK_TEST(test_rp_initial_state),
    CHECK_TEST(test_rp_first_cnp_paper),
    CHECK_TEST(test_rp_min_rate_floor),
    CHECK_TEST(test_rp_clamp_policies),
    CHECK_TEST(test_rp_stages_byte_counter),
    CHECK_TEST(test_rp_stages_timer_only),
    CHECK_TEST(test_rp_hai_linear),
    CHECK_TEST(test_rp_caps),
    CHECK_TEST(test_rp_first_cnp_rate_on_cnp),
    CHECK_TEST(test_rp_first_cnp_rate_periodic),
    CHECK_TEST(test_rp_decrease_period),
    CHECK_TEST(test_rp_on_cnp_with_decrease_period),
    CHECK_TEST(test_rp_periodic_alpha),
    CHECK_TEST(test_rp_same_instant_order),
    CHECK_TEST(test_rp_time_backwards),
    CHECK_TEST(test_rp_long_idle),
    CHECK_TEST(test_rp_next_deadline),
    CHECK_TEST(test_rp_presets),
    CHECK_TEST(test_rp_set_param),
    CHECK_TEST(test_rp_vectors),
    CHECK_TEST(test_rp_lazy_equals_reference),
    CHECK_TEST(test_rp_lazy_settled_long_gap),
    CHECK_TEST(test_rp_lazy_settled_many_bytes),
    CHECK_TEST(test_rp_lazy_rare_sender),
    CHECK_TEST(test_rp_fixed_presets),
    CHECK_TEST(test_rp_fixed_set_format),
    CHECK_TEST(test_rp_fixed_validation),
    CHECK_TEST(test_rp_fixed_clock),
    CHECK_TEST(test_rp_fixed_recipe),
    CHECK_TEST(test_rp_fixed_increase_stages),
    CHECK_TEST(test_rp_fixed_alpha_floor),
    CHECK_TEST(test_rp_fixed_time_backwards),
    CHECK_TEST(test_rp_fixed_lazy_equals_stepped),
    CHECK_TEST(test_rp_fixed_follows_float),
    CHECK_TEST(test_rp_fixed_random_formats),
    CHECK_TEST(test_np_moderation),
    CHECK_TEST(test_cp_probability),
    CHECK_TEST(test_cp_marking),
    CHECK_TEST(test_cp_marking_statistics),
    CHECK_TEST(test_pfc_static),
    CHECK_TEST(test_pfc_dynamic),
    CHECK_TEST(test_pfc_decide_is_threshold),
    CHECK_TEST(test_validation_errors),
    CHECK_TEST(test_number_whole),
    CHECK_TEST(test_number_real),
    CHECK_TEST(test_crc32_reference),
    CHECK_TEST(test_crc32_zeros),
    CHECK_TEST(test_icrc_vectors),
    CHECK_TEST(test_wire_opcodes),
    CHECK_TEST(test_wire_known_frames),
    CHECK_TEST(test_wire_round_trip),
    CHECK_TEST(test_wire_padded_frames),
    CHECK_TEST(test_pfc_round_trip),
    CHECK_TEST(test_link_pause_round_trip),
    CHECK_TEST(test_wire_truncation),
    CHECK_TEST(test_wire_random_input),
    CHECK_TEST(test_wire_encode_errors),
    CHECK_TEST(test_wire_helpers),
    CHECK_TEST(test_emu_single_frame_timing),
    CHECK_TEST(test_emu_incast_marks_and_moderates),
    CHECK_TEST(test_emu_refuses_bad_input),
    CHECK_TEST(test_scoreboard),
};

int main(int argc, char **argv)
{
    if (argc > 1)
        test_data_dir = argv[1];
    return check_run(tests, sizeof tests / sizeof tests[0], argc > 2 ? argv[2] : NULL);
}
