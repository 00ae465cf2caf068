/*
 * bcryptprimitives.dll for wine 8, which lacks it: Rust's standard library
 * on Windows draws its random bytes (HashMap seeds) from ProcessPrng in
 * this DLL, so without it no Rust program starts under that wine. Placed
 * beside an executable, this DLL exports ProcessPrng on top of
 * RtlGenRandom (advapi32's SystemFunction036), which wine has. Built by
 * build-shim with mingw; see README.md's platform section.
 */
#include <windows.h>

BOOLEAN NTAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a 32-bit length; larger requests go in pieces. */
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    /* Windows documents ProcessPrng as always succeeding. */
    return TRUE;
}
