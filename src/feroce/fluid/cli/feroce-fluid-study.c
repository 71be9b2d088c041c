/*
 * feroce-fluid-study - the fluid model as a scenario program of feroce-sweep:
 * --outdir, --RngRun, --db, --duration and the model flags of feroce-fluid;
 * one row into --db at its very end (src/feroce/doc/fluid.md, "Sweeps").
 */
#include "fluid-cmd.h"

int main(int argc, char **argv)
{
    return fluid_cmd_study(argc, argv, "feroce-fluid-study");
}
