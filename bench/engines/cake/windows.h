/* The few Windows names Cake 1.89g's source uses, for building it on Linux with gcc (doska's own
   shim, not part of Cake). build.sh points <Windows.h>, <winbase.h>, <intrin.h>, <conio.h>,
   <shlwapi.h> and <shlobj.h> here too. The engine runs in one thread; it finds no folder for its
   log file (so it writes none) and no other instance of itself. */
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Cake measures its time with clock(), which is wall time on Windows but processor time on
   Linux; the match runner measures wall time, so Cake gets wall time here too (the macro comes
   after <time.h>, which is not read again). */
static inline clock_t cake_wall_clock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (clock_t)(t.tv_sec * (long long)CLOCKS_PER_SEC +
                   t.tv_nsec / (1000000000LL / CLOCKS_PER_SEC));
}
#define clock() cake_wall_clock()
#define CLK_TCK CLOCKS_PER_SEC

/* Cake has a global array `index`, which glibc's <strings.h> (read by <string.h>) declares as a
   function: Cake's is renamed in all its files. */
#define index cake_index

#define WINAPI
#define __stdcall
#define __cdecl
#define __declspec(x)
#define __int64 long long
#define TRUE 1
#define FALSE 0
#define MAX_PATH 260
#define CSIDL_PERSONAL 5
#define SUCCEEDED(hr) ((hr) >= 0)

typedef int BOOL;
typedef void *HANDLE;
typedef unsigned long DWORD;
typedef void *LPVOID;
typedef long HRESULT;

#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef max
#define max(a, b) ((a) > (b) ? (a) : (b))
#endif

/* <intrin.h>: bit scans and population count of a 32-bit word. */
#define _BitScanForward(index, x) (*(index) = (x) ? __builtin_ctz(x) : 0, (x) != 0)
#define _BitScanReverse(index, x) (*(index) = (x) ? 31 - __builtin_clz(x) : 0, (x) != 0)
#define __popcnt(x) __builtin_popcount(x)

/* The working folder: Cake reads it and sets it back. */
static inline DWORD GetCurrentDirectory(DWORD n, char *buf) {
  if (!getcwd(buf, n)) buf[0] = 0;
  return (DWORD)strlen(buf);
}
static inline BOOL SetCurrentDirectory(const char *dir) { return chdir(dir) == 0; }

/* No "My Documents" folder: Cake's log file is then not opened (fopen("") fails). */
static inline HRESULT SHGetFolderPathA(void *w, int f, void *t, DWORD fl, char *path) {
  (void)w, (void)f, (void)t, (void)fl;
  path[0] = 0;
  return -1;
}

/* Cake numbers its running instances with named semaphores; here there is always one. */
static inline HANDLE CreateSemaphore(void *a, long i, long m, const char *name) {
  (void)a, (void)i, (void)m, (void)name;
  return (HANDLE)1;
}
static inline DWORD GetLastError(void) { return 0; }
static inline BOOL CloseHandle(HANDLE h) {
  (void)h;
  return TRUE;
}

/* <conio.h>: only its debugging code waits for a key. */
static inline int getch(void) { return 0; }
static inline int _getch(void) { return 0; }
