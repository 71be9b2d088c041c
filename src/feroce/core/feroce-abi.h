/*
 * feroce-abi.h - sizes of the core's structs, for bindings that mirror them
 * without a C compiler (the Python package's ctypes layouts check themselves
 * against these at import).
 */
#ifndef FEROCE_ABI_H
#define FEROCE_ABI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sizeof(struct NAME) for a public struct of the core ("feroce_rp_params", ...); 0 if unknown. */
size_t feroce_abi_sizeof(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* FEROCE_ABI_H */
