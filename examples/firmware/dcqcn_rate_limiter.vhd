-- dcqcn_rate_limiter.vhd - the VHDL port of dcqcn_rate_limiter.v: a DCQCN reaction point for
-- one QP in the fixed-point recipe of src/feroce/doc/dcqcn.md ("Fixed-point reaction point"),
-- one clock cycle per instant, events of a cycle in the spec's order (CNP, alpha tick, decrease
-- tick, increase expiry, transmitted bytes).  Synthesizable VHDL-2008 (numeric_std); the ports,
-- pacing, limits and the `fault` verification hook are those of the Verilog version.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity dcqcn_rate_limiter is
    generic (
        RATE_BITS  : positive := 32;
        ALPHA_BITS : positive := 16;
        CYCLE_BITS : positive := 48;
        STAGE_BITS : positive := 32;
        BYTE_BITS  : positive := 40
    );
    port (
        clk, rst                 : in  std_logic;
        cfg_line                 : in  unsigned(RATE_BITS - 1 downto 0);
        cfg_min_rate             : in  unsigned(RATE_BITS - 1 downto 0);
        cfg_rai                  : in  unsigned(RATE_BITS - 1 downto 0);
        cfg_rhai                 : in  unsigned(RATE_BITS - 1 downto 0);
        cfg_first_cnp_rate       : in  unsigned(RATE_BITS - 1 downto 0);
        cfg_g                    : in  unsigned(ALPHA_BITS downto 0);
        cfg_initial_alpha        : in  unsigned(ALPHA_BITS downto 0);
        cfg_alpha_period         : in  unsigned(CYCLE_BITS - 1 downto 0);
        cfg_decrease_period      : in  unsigned(CYCLE_BITS - 1 downto 0);
        cfg_increase_timer       : in  unsigned(CYCLE_BITS - 1 downto 0);
        cfg_byte_counter         : in  unsigned(BYTE_BITS - 1 downto 0);
        cfg_f                    : in  unsigned(STAGE_BITS - 1 downto 0);
        cfg_alpha_periodic       : in  std_logic;
        cfg_hai_linear           : in  std_logic;
        cfg_clamp_after_increase : in  std_logic;
        cfg_rate_nearest         : in  std_logic;
        cfg_alpha_nearest        : in  std_logic;
        cfg_cost_per_byte        : in  unsigned(31 downto 0);
        cnp_valid                : in  std_logic;
        tx_valid                 : in  std_logic;
        tx_bytes                 : in  unsigned(15 downto 0);
        tx_ready                 : out std_logic;
        rc, rt                   : out unsigned(RATE_BITS - 1 downto 0);
        alpha                    : out unsigned(ALPHA_BITS downto 0);
        ts, bs                   : out unsigned(STAGE_BITS - 1 downto 0);
        now                      : out unsigned(CYCLE_BITS - 1 downto 0);
        fault                    : in  unsigned(1 downto 0)
    );
end entity;

architecture rtl of dcqcn_rate_limiter is
    constant W  : positive := RATE_BITS;
    constant WA : positive := ALPHA_BITS;

    type regs_t is record
        rc, rt                             : unsigned(W - 1 downto 0);
        alpha                              : unsigned(WA downto 0);
        ts, bs                             : unsigned(STAGE_BITS - 1 downto 0);
        acc                                : unsigned(BYTE_BITS - 1 downto 0);
        next_alpha, next_dec, next_inc     : unsigned(CYCLE_BITS - 1 downto 0);
        active, alpha_flag, dec_flag       : std_logic;
        may_clamp, inc_armed               : std_logic;
    end record;

    signal r     : regs_t;
    signal cyc   : unsigned(CYCLE_BITS - 1 downto 0);
    signal credit : signed(63 downto 0) := (others => '0');

    -- x / 2^s rounded: truncate, or to the nearest with ties up (s >= 1)
    function rnd(x : unsigned(63 downto 0); s : natural; nearest : std_logic) return unsigned is
    begin
        if nearest = '1' then
            return shift_right(x + shift_left(to_unsigned(1, 64), s - 1), s);
        end if;
        return shift_right(x, s);
    end function;
begin
    now <= cyc;
    rc <= r.rc;
    rt <= r.rt;
    alpha <= r.alpha;
    ts <= r.ts;
    bs <= r.bs;
    tx_ready <= '1' when credit >= 0 else '0';

    process (clk)
        variable v        : regs_t;
        variable alpha_done : boolean;
        variable cnp_in     : boolean;

        -- alpha <- (1 - g) alpha (+ g): A <- RND(A (ONE - G), WA) (+ G)
        impure function alpha_next(a : unsigned(WA downto 0); raise : boolean) return unsigned is
            variable m, p : unsigned(63 downto 0);
        begin
            m := shift_left(to_unsigned(1, 64), WA) - resize(cfg_g, 64);
            p := resize(resize(a, 32) * m(31 downto 0), 64);
            p := rnd(p, WA, cfg_alpha_nearest);
            if raise then
                p := p + resize(cfg_g, 64);
            end if;
            return p(WA downto 0);
        end function;

        -- Rc <- max(MIN, Rc - RND(Rc A, WA + 1))
        impure function cut_rc(x : unsigned(W - 1 downto 0); a : unsigned(WA downto 0)) return unsigned is
            variable dec : unsigned(63 downto 0);
            variable nearest : std_logic := cfg_rate_nearest;
            variable res : unsigned(W - 1 downto 0);
        begin
            if fault = "01" then
                nearest := not cfg_rate_nearest;
            end if;
            dec := rnd(resize(x * a, 64), WA + 1, nearest);
            res := x - dec(W - 1 downto 0);
            if res > cfg_min_rate then
                return res;
            end if;
            return cfg_min_rate;
        end function;

        -- Rt <- min(LINE, Rt + step)
        impure function add_capped(x : unsigned(W - 1 downto 0); step : unsigned(63 downto 0)) return unsigned is
        begin
            if step >= resize(cfg_line - x, 64) then
                return cfg_line;
            end if;
            return x + step(W - 1 downto 0);
        end function;

        -- one increase event with the stages already counted
        procedure increase is
            variable lo, hi, over : unsigned(STAGE_BITS - 1 downto 0);
            variable stage : natural range 0 to 2; -- fast recovery, additive, hyper
            variable step : unsigned(63 downto 0);
            variable avg : unsigned(63 downto 0);
        begin
            if v.ts < v.bs then lo := v.ts; hi := v.bs; else lo := v.bs; hi := v.ts; end if;
            if cfg_byte_counter /= 0 then
                if hi <= cfg_f then stage := 0; elsif lo > cfg_f then stage := 2; else stage := 1; end if;
                over := lo - cfg_f;
            else
                if v.ts <= cfg_f then stage := 0; elsif v.ts = cfg_f + 1 then stage := 1; else stage := 2; end if;
                over := v.ts - cfg_f - 1;
            end if;
            step := resize(cfg_rhai, 64);
            if cfg_hai_linear = '1' then
                step := resize(cfg_rhai * over, 64);
            end if;
            if stage = 1 then
                v.rt := add_capped(v.rt, resize(cfg_rai, 64));
            elsif stage = 2 then
                v.rt := add_capped(v.rt, step);
            end if;
            avg := rnd(resize(v.rt, 64) + resize(v.rc, 64), 1, cfg_rate_nearest);
            v.rc := avg(W - 1 downto 0);
            v.may_clamp := '1';
        end procedure;

        procedure do_cut is
        begin
            if cfg_clamp_after_increase = '0' or v.may_clamp = '1' then
                v.rt := v.rc;
            end if;
            v.rc := cut_rc(v.rc, v.alpha);
            v.ts := (others => '0');
            v.bs := (others => '0');
            v.acc := (others => '0');
            v.may_clamp := '0';
            v.next_inc := cyc + cfg_increase_timer;
            v.inc_armed := '1';
        end procedure;

        procedure do_cnp is
            variable first : boolean;
            variable x : unsigned(W - 1 downto 0);
        begin
            first := v.active = '0';
            if first then
                v.active := '1';
                v.alpha := cfg_initial_alpha;
                v.next_alpha := cyc + cfg_alpha_period;
                if cfg_decrease_period /= 0 then
                    v.next_dec := cyc + cfg_decrease_period;
                end if;
            end if;
            if first and cfg_first_cnp_rate /= 0 then
                -- Rc = Rt = first_cnp_rate within [min_rate, Rc]; counts as a cut
                x := cfg_first_cnp_rate;
                if x < cfg_min_rate then x := cfg_min_rate; end if;
                if x > v.rc then x := v.rc; end if;
                v.rc := x;
                v.rt := x;
                v.may_clamp := '0';
                if cfg_decrease_period = 0 then
                    v.ts := (others => '0');
                    v.bs := (others => '0');
                    v.acc := (others => '0');
                    v.next_inc := cyc + cfg_increase_timer;
                    v.inc_armed := '1';
                end if;
            elsif cfg_decrease_period = 0 then
                do_cut;
            end if;
            if cfg_decrease_period /= 0 then
                v.dec_flag := '1';
            end if;
            if cfg_alpha_periodic = '0' then
                v.alpha := alpha_next(v.alpha, true); -- after the cut: the cut used the old alpha
                v.next_alpha := cyc + cfg_alpha_period;
            elsif not first then
                v.alpha_flag := '1';
            end if;
        end procedure;

        procedure do_alpha is
        begin
            if v.active = '1' and not alpha_done and v.next_alpha = cyc then
                v.alpha := alpha_next(v.alpha, cfg_alpha_periodic = '1' and v.alpha_flag = '1');
                v.alpha_flag := '0';
                v.next_alpha := cyc + cfg_alpha_period;
                alpha_done := true;
            end if;
        end procedure;

        procedure do_timers is
        begin
            if v.active = '1' then
                if cfg_decrease_period /= 0 and v.next_dec = cyc then
                    if v.dec_flag = '1' then
                        do_alpha; -- the alpha tick of this cycle comes first
                        v.dec_flag := '0';
                        do_cut;   -- restarts the increase timer: an expiry now is superseded
                    end if;
                    v.next_dec := cyc + cfg_decrease_period;
                end if;
                do_alpha;
                if v.inc_armed = '1' and v.next_inc = cyc then
                    v.ts := v.ts + 1;
                    increase;
                    v.next_inc := cyc + cfg_increase_timer;
                end if;
            end if;
        end procedure;

        procedure do_bytes is
            variable sum : unsigned(BYTE_BITS - 1 downto 0);
        begin
            if v.active = '1' and cfg_byte_counter /= 0 and tx_valid = '1' then
                sum := v.acc + tx_bytes;
                if sum >= cfg_byte_counter then
                    v.acc := sum - cfg_byte_counter;
                    v.bs := v.bs + 1;
                    increase;
                else
                    v.acc := sum;
                end if;
            end if;
        end procedure;

        variable rc64, cost : signed(63 downto 0);
    begin
        if rising_edge(clk) then
            if rst = '1' then
                r.rc <= cfg_line;
                r.rt <= cfg_line;
                r.alpha <= cfg_initial_alpha;
                r.ts <= (others => '0');
                r.bs <= (others => '0');
                r.acc <= (others => '0');
                r.next_alpha <= (others => '0');
                r.next_dec <= (others => '0');
                r.next_inc <= (others => '0');
                r.active <= '0';
                r.alpha_flag <= '0';
                r.dec_flag <= '0';
                r.may_clamp <= '1';
                r.inc_armed <= '0';
                cyc <= (others => '0');
                credit <= (others => '0');
            else
                v := r;
                alpha_done := false;
                -- fault "11": a CNP is lost while the pacing holds the next frame (tx_ready low)
                cnp_in := cnp_valid = '1' and not (fault = "11" and credit < 0);
                if fault = "10" then
                    do_timers; -- the broken order: timers first
                    if cnp_in then do_cnp; end if;
                else
                    if cnp_in then do_cnp; end if;
                    do_timers;
                end if;
                do_bytes;
                r <= v;
                cyc <= cyc + 1;
                -- pacing at the rate of this cycle
                rc64 := signed(resize(r.rc, 64));
                cost := signed(resize((resize(tx_bytes, 32) + 24) * cfg_cost_per_byte, 64));
                if tx_valid = '1' then
                    credit <= credit + rc64 - cost;
                elsif credit + rc64 > 0 then
                    credit <= (others => '0');
                else
                    credit <= credit + rc64;
                end if;
            end if;
        end if;
    end process;
end architecture;
