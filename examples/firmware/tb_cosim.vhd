-- tb_cosim.vhd - the VHDL twin of tb_cosim.sv: dcqcn_rate_limiter.vhd in closed loop with feroce's
-- emulated switch and checked every cycle by its scoreboard, through GHDL's VHPIDIRECT
-- (feroce_cosim_pkg.vhd).  The bench's spec comes from the environment variable
-- FEROCE_COSIM_SPEC (as +spec= for tb_cosim.sv); generics FAULT (0, 1 wrong rounding, 2 timers
-- before the CNP, 3 a CNP lost while the pacing holds a frame) and MAX_CYCLES (a hard stop, a failure).  The process ends with exit status 0
-- (PASS) or 1 (FAIL).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.feroce_cosim.all;

entity tb_cosim is
    generic (
        RATE_BITS  : positive := 32;
        ALPHA_BITS : positive := 16;
        FAULT      : natural  := 0;
        MAX_CYCLES : natural  := 20000000
    );
end entity;

architecture sim of tb_cosim is
    signal clk, rst : std_logic := '1';
    signal cfg_line, cfg_min_rate, cfg_rai, cfg_rhai, cfg_first_cnp_rate : unsigned(RATE_BITS - 1 downto 0);
    signal cfg_g, cfg_initial_alpha : unsigned(ALPHA_BITS downto 0);
    signal cfg_alpha_period, cfg_decrease_period, cfg_increase_timer : unsigned(47 downto 0);
    signal cfg_byte_counter : unsigned(39 downto 0);
    signal cfg_f, cfg_cost_per_byte : unsigned(31 downto 0);
    signal cfg_alpha_periodic, cfg_hai_linear, cfg_clamp_after_increase : std_logic;
    signal cfg_rate_nearest, cfg_alpha_nearest : std_logic;
    signal cnp_valid, tx_valid, tx_ready : std_logic := '0';
    signal tx_bytes : unsigned(15 downto 0) := (others => '0');
    signal rc, rt : unsigned(RATE_BITS - 1 downto 0);
    signal alpha : unsigned(ALPHA_BITS downto 0);
    signal ts, bs : unsigned(31 downto 0);
    signal now : unsigned(47 downto 0);
    signal fault_s : unsigned(1 downto 0) := to_unsigned(FAULT, 2);
begin
    clk <= not clk after 3.2 ns; -- 156.25 MHz

    dut : entity work.dcqcn_rate_limiter
        generic map (RATE_BITS => RATE_BITS, ALPHA_BITS => ALPHA_BITS)
        port map (clk, rst, cfg_line, cfg_min_rate, cfg_rai, cfg_rhai, cfg_first_cnp_rate, cfg_g,
                  cfg_initial_alpha, cfg_alpha_period, cfg_decrease_period, cfg_increase_timer,
                  cfg_byte_counter, cfg_f, cfg_alpha_periodic, cfg_hai_linear, cfg_clamp_after_increase,
                  cfg_rate_nearest, cfg_alpha_nearest, cfg_cost_per_byte, cnp_valid, tx_valid, tx_bytes,
                  tx_ready, rc, rt, alpha, ts, bs, now, fault_s);

    bench : process
        -- configuration register `index` (feroce-cosim-vhpi.c) from its two 30-bit halves
        impure function reg(index : integer) return unsigned is
            variable lo, hi : integer;
        begin
            lo := feroce_vhpi_reg(index, 0);
            hi := feroce_vhpi_reg(index, 1);
            assert lo >= 0 and hi >= 0 report "tb_cosim: the bench has no register " & integer'image(index)
                severity failure;
            return shift_left(resize(to_unsigned(hi, 30), 64), 30) or resize(to_unsigned(lo, 30), 64);
        end function;

        function bit_of(x : unsigned) return std_logic is
        begin
            if x /= 0 then return '1'; end if;
            return '0';
        end function;

        variable n, done, closed : integer;
        variable finished : boolean := false;
    begin
        assert FAULT <= 3 report "tb_cosim: FAULT = " & integer'image(FAULT) & " is not allowed: expected 0, 1, 2 or 3"
            severity failure;
        if feroce_vhpi_open = 0 then
            report "tb_cosim: the bench did not open (FEROCE_COSIM_SPEC)" severity failure;
        end if;
        assert reg(17) = RATE_BITS and reg(18) = ALPHA_BITS
            report "tb_cosim: the format's widths differ from this DUT's generics" severity failure;
        cfg_line <= resize(reg(0), RATE_BITS);
        cfg_min_rate <= resize(reg(1), RATE_BITS);
        cfg_rai <= resize(reg(2), RATE_BITS);
        cfg_rhai <= resize(reg(3), RATE_BITS);
        cfg_first_cnp_rate <= resize(reg(4), RATE_BITS);
        cfg_g <= resize(reg(5), ALPHA_BITS + 1);
        cfg_initial_alpha <= resize(reg(6), ALPHA_BITS + 1);
        cfg_alpha_period <= resize(reg(7), 48);
        cfg_decrease_period <= resize(reg(8), 48);
        cfg_increase_timer <= resize(reg(9), 48);
        cfg_byte_counter <= resize(reg(10), 40);
        cfg_f <= resize(reg(11), 32);
        cfg_alpha_periodic <= bit_of(reg(12));
        cfg_hai_linear <= bit_of(reg(13));
        cfg_clamp_after_increase <= bit_of(reg(14));
        cfg_rate_nearest <= bit_of(reg(15));
        cfg_alpha_nearest <= bit_of(reg(16));
        cfg_cost_per_byte <= resize(reg(19), 32);

        for i in 1 to 3 loop
            wait until rising_edge(clk);
        end loop;
        wait until falling_edge(clk);
        rst <= '0'; -- the DUT's cycle 0 starts
        for cycle in 0 to MAX_CYCLES - 1 loop
            -- the inputs of this cycle: CNPs first, then the bytes of a frame the DUT may start
            if feroce_vhpi_cnp(cycle) /= 0 then cnp_valid <= '1'; else cnp_valid <= '0'; end if;
            if tx_ready = '1' then n := feroce_vhpi_tx(cycle, 1); else n := feroce_vhpi_tx(cycle, 0); end if;
            if n /= 0 then tx_valid <= '1'; else tx_valid <= '0'; end if;
            tx_bytes <= to_unsigned(n, 16);
            wait until rising_edge(clk); -- the DUT applies this cycle's events
            wait until falling_edge(clk);
            assert now = to_unsigned(cycle + 1, 48) report "tb_cosim: the DUT and the bench disagree on the cycle"
                severity failure;
            n := feroce_vhpi_check(cycle, to_integer(rc(31 downto 16)), to_integer(rc(15 downto 0)),
                                   to_integer(rt(31 downto 16)), to_integer(rt(15 downto 0)), to_integer(alpha));
            done := feroce_vhpi_done(cycle);
            finished := done /= 0;
            exit when finished;
        end loop;
        assert finished report "tb_cosim: stopped at MAX_CYCLES = " & integer'image(MAX_CYCLES) &
            " before the bench's end" severity failure;
        closed := feroce_vhpi_close; -- prints PASS or FAIL and ends the process with its status
        wait;
    end process;
end architecture;
