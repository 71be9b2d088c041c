/*
 * feroce-fluid - the DCQCN fluid model on the command line.
 *
 *   feroce-fluid run|fixedpoint|margin|boundary|map [--flag=value ...]
 *
 * Flags use the packet model's names and presets (src/feroce/doc/fluid.md lists them).
 */
#include <stdio.h>
#include <string.h>

#include "fluid-cmd.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: feroce-fluid COMMAND [--flag=value ...]\n"
            "commands:\n"
            "  run         time series CSV (t_s, q_bytes, p, per class rcN_bps, rtN_bps, alphaN)\n"
            "              --duration=100ms --window=10us --out=FILE (default stdout)\n"
            "  fixedpoint  the exact equilibrium: key=value lines p= q_bytes= alpha= rc_bps= rt_bps=\n"
            "  margin      phase_margin_deg=X crossover_hz=Y of the linearised loop\n"
            "  boundary    the largest loop delay with a positive margin (--max-delay=1ms)\n"
            "  map         margin over two parameters: --x=NAME:FROM:TO:COUNT[:log] --y=... --out=PREFIX\n"
            "              writes PREFIX.csv, PREFIX.gp and PREFIX.png (gnuplot)\n"
            "model flags (the packet model's names; presets first, the rest on top):\n"
            "  --preset=paper|connectx|hpcc --line-rate=10Gbps --bottleneck=RATE --flows=2 --delay=4us\n"
            "  --kmin=BYTES --kmax=BYTES --pmax=P --g=G --rai=MBPS --rhai=MBPS --min-rate=MBPS\n"
            "  --timer=T --alpha-period=T --decrease-period=T --cnp-interval=T --byte-counter=BYTES --F=N\n"
            "  --initial-alpha=A --alpha-mode=on_cnp|periodic --hai-mode=constant|linear\n"
            "  --clamp=always|after_increase --param=CORE_NAME=VALUE (spec/dcqcn.md names)\n"
            "  --class=COUNT[,preset=P,join=T,leave=T,g=...] (repeat) or --schedule=start:stop,...\n"
            "  --cnp-model=paper|np --ramp=red|linear --packet-bytes=1000\n"
            "  --method=bs3 --max-step=1ms --rtol=1e-4 (adaptive, default) | rk4 --step=500ns\n");
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";

    if (strcmp(cmd, "run") == 0)
        return fluid_cmd_run(argc, argv);
    if (strcmp(cmd, "fixedpoint") == 0)
        return fluid_cmd_fixedpoint(argc, argv);
    if (strcmp(cmd, "margin") == 0)
        return fluid_cmd_margin(argc, argv);
    if (strcmp(cmd, "boundary") == 0)
        return fluid_cmd_boundary(argc, argv);
    if (strcmp(cmd, "map") == 0)
        return fluid_cmd_map(argc, argv);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr,
            "feroce-fluid: command = \"%s\" is not allowed: expected run, fixedpoint, margin, boundary, "
            "map or --help\n",
            cmd);
    return 2;
}
