#include "CTestCrash.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

static volatile uintptr_t invalid_address = 0;

void kcr_test_crash(int signal_number) {
    if (signal_number == SIGSEGV) {
        volatile int *p = (volatile int *)invalid_address;
        *p = 1;
    }
    if (signal_number == SIGABRT) abort();
    // Worker threads (libdispatch) block asynchronous signals: unblock it, as a real fault would arrive.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(signal_number);
}
