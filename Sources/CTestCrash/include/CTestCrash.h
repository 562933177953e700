#ifndef KOTEN_CTESTCRASH_H
#define KOTEN_CTESTCRASH_H
// The crash of koten-ocr's KOTEN_OCR_TEST_CRASH hook (docs/diagnostics.md, "Test hooks"): a real fatal signal,
// so tests see what CCrashRecord's handler records. Linked into the command-line tool only, never the library.

/// Test hook: raises `signal` from inside a stage: SIGSEGV by an invalid memory write, SIGABRT by abort(),
/// the others by raise() after unblocking the signal in the calling thread.
void kcr_test_crash(int signal);

#endif
