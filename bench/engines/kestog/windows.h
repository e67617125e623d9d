/* The few Windows names KestoG 1.4's source uses, for building it on Linux (doska's own shim,
   not part of KestoG). The engine then runs in one thread, so the critical section is empty. */
#pragma once
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define WINAPI
#define __stdcall
#define __inline inline
#define __int64 long long
#define __int32 int
#define TRUE 1
#define FALSE 0
#define MB_OK 0
#define CLK_TCK CLOCKS_PER_SEC
#define DLL_PROCESS_ATTACH 1
#define DLL_PROCESS_DETACH 0
#define DLL_THREAD_ATTACH 2
#define DLL_THREAD_DETACH 3

typedef int BOOL;
typedef void *HANDLE;
typedef unsigned long DWORD;
typedef void *LPVOID;
typedef int CRITICAL_SECTION;

static inline void InitializeCriticalSection(CRITICAL_SECTION *) {}
static inline void EnterCriticalSection(CRITICAL_SECTION *) {}
static inline void LeaveCriticalSection(CRITICAL_SECTION *) {}
static inline void Sleep(int ms) { usleep(ms * 1000); }
static inline int MessageBox(void *, const char *text, const char *caption, int) {
  fprintf(stderr, "kestog: %s: %s\n", caption, text);
  return 0;
}
