-- feroce_cosim_pkg.vhd - the bench calls of libferoce-cosim (src/feroce/cosim/feroce-cosim-vhpi.c)
-- for GHDL through VHPIDIRECT.  The library is named relative to the directory the simulation
-- runs in (put a link to libferoce-cosim.so there): GHDL 2.0's mcode backend stops with
-- "translation.adb:173 range check failed" when the path in a foreign attribute is longer than
-- 32 characters.  The bodies run only if the foreign call cannot be bound.
package feroce_cosim is
    function feroce_vhpi_open return integer;
    attribute foreign of feroce_vhpi_open : function is "VHPIDIRECT ./libferoce-cosim.so feroce_vhpi_open";
    function feroce_vhpi_reg(index, half : integer) return integer;
    attribute foreign of feroce_vhpi_reg : function is "VHPIDIRECT ./libferoce-cosim.so feroce_vhpi_reg";
    function feroce_vhpi_cnp(cycle : integer) return integer;
    attribute foreign of feroce_vhpi_cnp : function is "VHPIDIRECT ./libferoce-cosim.so feroce_vhpi_cnp";
    function feroce_vhpi_tx(cycle, ready : integer) return integer;
    attribute foreign of feroce_vhpi_tx : function is "VHPIDIRECT ./libferoce-cosim.so feroce_vhpi_tx";
    function feroce_vhpi_check(cycle, rc_hi, rc_lo, rt_hi, rt_lo, alpha : integer) return integer;
    attribute foreign of feroce_vhpi_check : function is "VHPIDIRECT ./libferoce-cosim.so feroce_vhpi_check";
    function feroce_vhpi_done(cycle : integer) return integer;
    attribute foreign of feroce_vhpi_done : function is "VHPIDIRECT ./libferoce-cosim.so feroce_vhpi_done";
    function feroce_vhpi_close return integer;
    attribute foreign of feroce_vhpi_close : function is "VHPIDIRECT ./libferoce-cosim.so feroce_vhpi_close";
end package;

package body feroce_cosim is
    function feroce_vhpi_open return integer is
    begin
        report "feroce_vhpi_open: VHPIDIRECT not bound" severity failure;
        return 0;
    end function;
    function feroce_vhpi_reg(index, half : integer) return integer is
    begin
        report "feroce_vhpi_reg: VHPIDIRECT not bound" severity failure;
        return 0;
    end function;
    function feroce_vhpi_cnp(cycle : integer) return integer is
    begin
        report "feroce_vhpi_cnp: VHPIDIRECT not bound" severity failure;
        return 0;
    end function;
    function feroce_vhpi_tx(cycle, ready : integer) return integer is
    begin
        report "feroce_vhpi_tx: VHPIDIRECT not bound" severity failure;
        return 0;
    end function;
    function feroce_vhpi_check(cycle, rc_hi, rc_lo, rt_hi, rt_lo, alpha : integer) return integer is
    begin
        report "feroce_vhpi_check: VHPIDIRECT not bound" severity failure;
        return 0;
    end function;
    function feroce_vhpi_done(cycle : integer) return integer is
    begin
        report "feroce_vhpi_done: VHPIDIRECT not bound" severity failure;
        return 0;
    end function;
    function feroce_vhpi_close return integer is
    begin
        report "feroce_vhpi_close: VHPIDIRECT not bound" severity failure;
        return 0;
    end function;
end package body;
