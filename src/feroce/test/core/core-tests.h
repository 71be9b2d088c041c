/* core-tests.h - the unit tests of the C core, one function each. */
#ifndef FEROCE_CORE_TESTS_H
#define FEROCE_CORE_TESTS_H

extern const char *test_data_dir;

void test_rp_initial_state(void);
void test_rp_first_cnp_paper(void);
void test_rp_min_rate_floor(void);
void test_rp_clamp_policies(void);
void test_rp_stages_byte_counter(void);
void test_rp_stages_timer_only(void);
void test_rp_hai_linear(void);
void test_rp_caps(void);
void test_rp_first_cnp_rate_on_cnp(void);
void test_rp_first_cnp_rate_periodic(void);
void test_rp_decrease_period(void);
void test_rp_on_cnp_with_decrease_period(void);
void test_rp_periodic_alpha(void);
void test_rp_same_instant_order(void);
void test_rp_time_backwards(void);
void test_rp_long_idle(void);
void test_rp_next_deadline(void);
void test_rp_presets(void);
void test_rp_set_param(void);
void test_rp_vectors(void);
void test_rp_lazy_equals_reference(void);
void test_rp_lazy_settled_long_gap(void);
void test_rp_lazy_settled_many_bytes(void);
void test_rp_lazy_rare_sender(void);
void test_rp_fixed_presets(void);
void test_rp_fixed_set_format(void);
void test_rp_fixed_validation(void);
void test_rp_fixed_clock(void);
void test_rp_fixed_recipe(void);
void test_rp_fixed_increase_stages(void);
void test_rp_fixed_alpha_floor(void);
void test_rp_fixed_time_backwards(void);
void test_rp_fixed_lazy_equals_stepped(void);
void test_rp_fixed_follows_float(void);
void test_rp_fixed_random_formats(void);
void test_np_moderation(void);
void test_cp_probability(void);
void test_cp_marking(void);
void test_cp_marking_statistics(void);
void test_pfc_static(void);
void test_pfc_dynamic(void);
void test_validation_errors(void);
void test_crc32_reference(void);
void test_crc32_zeros(void);
void test_icrc_vectors(void);
void test_wire_opcodes(void);
void test_wire_known_frames(void);
void test_wire_round_trip(void);
void test_wire_padded_frames(void);
void test_pfc_round_trip(void);
void test_wire_truncation(void);
void test_wire_random_input(void);
void test_wire_encode_errors(void);
void test_wire_helpers(void);
void test_emu_single_frame_timing(void);
void test_emu_incast_marks_and_moderates(void);
void test_emu_refuses_bad_input(void);
void test_scoreboard(void);
void test_number_whole(void);
void test_number_real(void);

#endif
