-- tb_rate_limiter.vhd - the cocotb bench's top for dcqcn_rate_limiter.vhd (under GHDL): the twin of
-- tb_rate_limiter.v, a 156.25 MHz clock and a signal for each port.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
entity tb_rate_limiter is
end entity;
architecture bench of tb_rate_limiter is
    signal clk : std_logic := '0';
    signal rst : std_logic := '1';
    signal cfg_line : unsigned(31 downto 0) := (others => '0');
    signal cfg_min_rate, cfg_rai, cfg_rhai, cfg_first_cnp_rate : unsigned(31 downto 0) := (others => '0');
    signal cfg_g, cfg_initial_alpha : unsigned(16 downto 0) := (others => '0');
    signal cfg_alpha_period, cfg_decrease_period, cfg_increase_timer : unsigned(47 downto 0) := (others => '0');
    signal cfg_byte_counter : unsigned(39 downto 0) := (others => '0');
    signal cfg_f, cfg_cost_per_byte : unsigned(31 downto 0) := (others => '0');
    signal cfg_alpha_periodic, cfg_hai_linear, cfg_clamp_after_increase, cfg_rate_nearest, cfg_alpha_nearest : std_logic := '0';
    signal cnp_valid, tx_valid, tx_ready : std_logic := '0';
    signal tx_bytes : unsigned(15 downto 0) := (others => '0');
    signal rc, rt, ts, bs : unsigned(31 downto 0);
    signal alpha : unsigned(16 downto 0);
    signal now : unsigned(47 downto 0);
    signal fault : unsigned(1 downto 0) := "00";
begin
    clk <= not clk after 3200 ps;
    dut : entity work.dcqcn_rate_limiter
        port map (clk => clk, rst => rst, cfg_line => cfg_line, cfg_min_rate => cfg_min_rate, cfg_rai => cfg_rai,
                  cfg_rhai => cfg_rhai, cfg_first_cnp_rate => cfg_first_cnp_rate, cfg_g => cfg_g,
                  cfg_initial_alpha => cfg_initial_alpha, cfg_alpha_period => cfg_alpha_period,
                  cfg_decrease_period => cfg_decrease_period, cfg_increase_timer => cfg_increase_timer,
                  cfg_byte_counter => cfg_byte_counter, cfg_f => cfg_f, cfg_alpha_periodic => cfg_alpha_periodic,
                  cfg_hai_linear => cfg_hai_linear, cfg_clamp_after_increase => cfg_clamp_after_increase,
                  cfg_rate_nearest => cfg_rate_nearest, cfg_alpha_nearest => cfg_alpha_nearest,
                  cfg_cost_per_byte => cfg_cost_per_byte, cnp_valid => cnp_valid, tx_valid => tx_valid,
                  tx_bytes => tx_bytes, tx_ready => tx_ready, rc => rc, rt => rt, alpha => alpha, ts => ts, bs => bs,
                  now => now, fault => fault);
end architecture;
