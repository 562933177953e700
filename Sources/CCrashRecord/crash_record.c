// Run marker and fatal-signal crash record (see include/CCrashRecord.h).
// Nothing on the signal path allocates, locks or formats with stdio.
#include "CCrashRecord.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define SIGNAL_SLOTS 65
#define ALT_STACK_BYTES (64 * 1024)

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
static const int termination_signals[] = {SIGINT, SIGTERM, SIGHUP};

// Handler bookkeeping: the disposition each signal had before ours, and whether ours is in place.
static struct sigaction previous_action[SIGNAL_SLOTS];
static atomic_int handler_installed[SIGNAL_SLOTS];
static atomic_int in_handler;

// Run state. `claimed` guards begin/end; `ready` says the fields below are valid; `writers` counts marker
// writes in progress so kcr_end never closes the descriptor under one.
static atomic_int claimed;
static atomic_int ready;
static atomic_int writers;
static int marker_fd = -1;
static char crash_path[4096];
static char marker_path[4096];
static char run_id[KCR_RUN_ID_WIDTH + 1];
static int64_t start_ms;
static _Atomic(const char *) current_stage;
static _Atomic int64_t resident_now;
static _Atomic int64_t watermark;
static _Atomic int64_t written_watermark;

static int64_t now_ms(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return 0;
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// ---- formatting without stdio --------------------------------------------------------------------------

typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
} text_buffer;

static void put_text(text_buffer *b, const char *s) {
    while (s && *s && b->length < b->capacity) b->bytes[b->length++] = *s++;
}

/// `s` cut or padded with spaces to exactly `width` characters.
static void put_padded(text_buffer *b, const char *s, size_t width) {
    size_t i = 0;
    while (s && s[i] && i < width && b->length < b->capacity) b->bytes[b->length++] = s[i++];
    for (; i < width && b->length < b->capacity; i++) b->bytes[b->length++] = ' ';
}

/// A non-negative integer in decimal, zero-padded to `width` digits (wider values are written whole).
static void put_integer(text_buffer *b, int64_t value, int width) {
    char digits[24];
    int n = 0;
    uint64_t v = value < 0 ? 0 : (uint64_t)value;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < 20);
    while (n < width && n < 20) digits[n++] = '0';
    while (n > 0 && b->length < b->capacity) b->bytes[b->length++] = digits[--n];
}

static void put_field(text_buffer *b, const char *key, int64_t value, int width) {
    put_text(b, key);
    put_text(b, " ");
    put_integer(b, value, width);
    put_text(b, "\n");
}

/// One record: the marker (signal 0) or a crash record. Every field has a fixed width, so successive markers
/// have the same length and each pwrite replaces the whole previous one.
static size_t format_record(char *bytes, size_t capacity, int signal_number, int64_t time_ms) {
    text_buffer b = {bytes, 0, capacity};
    put_text(&b, signal_number ? "koten-ocr-crash " : "koten-ocr-run ");
    put_integer(&b, KCR_RECORD_VERSION, 1);
    put_text(&b, "\n");
    put_field(&b, "pid", (int64_t)getpid(), 10);
    put_text(&b, "run ");
    put_padded(&b, run_id, KCR_RUN_ID_WIDTH);
    put_text(&b, "\n");
    put_field(&b, "start", start_ms, 15);
    put_field(&b, "updated", time_ms, 15);
    put_text(&b, "stage ");
    put_padded(&b, atomic_load(&current_stage), KCR_STAGE_WIDTH);
    put_text(&b, "\n");
    put_field(&b, "resident", atomic_load(&resident_now), 18);
    put_field(&b, "watermark", atomic_load(&watermark), 18);
    if (signal_number) put_field(&b, "signal", signal_number, 3);
    put_text(&b, "end\n");
    return b.length;
}

static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, bytes, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        bytes += n;
        length -= (size_t)n;
    }
}

static void raise_watermark(int64_t resident) {
    int64_t seen = atomic_load(&watermark);
    while (resident > seen && !atomic_compare_exchange_weak(&watermark, &seen, resident)) {
    }
}

static void rewrite_marker(void) {
    atomic_fetch_add(&writers, 1);
    if (atomic_load(&ready) && marker_fd >= 0) {
        char bytes[512];
        int64_t mark = atomic_load(&watermark);
        size_t n = format_record(bytes, sizeof bytes, 0, now_ms());
        if (pwrite(marker_fd, bytes, n, 0) == (ssize_t)n) atomic_store(&written_watermark, mark);
    }
    atomic_fetch_sub(&writers, 1);
}

// ---- the signal handler ----------------------------------------------------------------------------------

static void on_signal(int signal_number, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    int saved_errno = errno;
    if (atomic_load(&ready) && atomic_exchange(&in_handler, 1) == 0) {
        char bytes[512];
        size_t n = format_record(bytes, sizeof bytes, signal_number, now_ms());
        int fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            write_all(fd, bytes, n);
            close(fd);
        }
    }
    // Hand the signal to whoever had it before (the default action unless someone else installed a handler):
    // it is blocked while this handler runs, so the re-raised signal is delivered as soon as we return.
    if (signal_number > 0 && signal_number < SIGNAL_SLOTS) {
        struct sigaction before = previous_action[signal_number];
        if (!(before.sa_flags & SA_SIGINFO) && before.sa_handler == SIG_IGN) before.sa_handler = SIG_DFL;
        sigaction(signal_number, &before, NULL);
        atomic_store(&handler_installed[signal_number], 0);
    }
    raise(signal_number);
    errno = saved_errno;
}

static void install_alternate_stack(void) {
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    void *memory = malloc(ALT_STACK_BYTES);  // kept for the life of the thread; never on the signal path
    if (!memory) return;
    stack_t stack = {.ss_sp = memory, .ss_size = ALT_STACK_BYTES, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) free(memory);
}

static void install(int signal_number, int only_if_default) {
    if (signal_number <= 0 || signal_number >= SIGNAL_SLOTS || atomic_load(&handler_installed[signal_number])) return;
    struct sigaction current;
    if (sigaction(signal_number, NULL, &current) != 0) return;
    if (only_if_default && ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL)) return;
    previous_action[signal_number] = current;
    struct sigaction ours;
    memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = on_signal;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&ours.sa_mask);
    if (sigaction(signal_number, &ours, NULL) == 0) atomic_store(&handler_installed[signal_number], 1);
}

// ---- public API ----------------------------------------------------------------------------------------

int kcr_claim(const char *path) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return -2;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
    int error = errno;
    close(fd);
    errno = error;
    return error == EWOULDBLOCK ? -1 : -2;
}

int kcr_begin(const char *marker, const char *crash, const char *run, int64_t start,
              int fatal_handlers, int termination_handlers) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&claimed, &expected, 1)) return -1;
    if (strlen(crash) >= sizeof crash_path || strlen(marker) >= sizeof marker_path) {
        atomic_store(&claimed, 0);
        errno = ENAMETOOLONG;
        return -2;
    }
    int fd = open(marker, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int error = errno;
        if (fd >= 0) close(fd);
        atomic_store(&claimed, 0);
        errno = error;
        return -2;
    }
    strcpy(crash_path, crash);
    strcpy(marker_path, marker);
    strncpy(run_id, run, KCR_RUN_ID_WIDTH);
    run_id[KCR_RUN_ID_WIDTH] = 0;
    start_ms = start;
    marker_fd = fd;
    atomic_store(&current_stage, "start");
    atomic_store(&resident_now, 0);
    atomic_store(&watermark, 0);
    atomic_store(&written_watermark, 0);
    atomic_store(&in_handler, 0);
    atomic_store(&ready, 1);
    rewrite_marker();
    if (fatal_handlers || termination_handlers) install_alternate_stack();
    if (fatal_handlers)
        for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) install(fatal_signals[i], 0);
    if (termination_handlers)
        for (size_t i = 0; i < sizeof termination_signals / sizeof termination_signals[0]; i++)
            install(termination_signals[i], 1);
    return 0;
}

void kcr_stage(const char *stage, int64_t resident, int64_t peak) {
    if (!atomic_load(&ready)) return;
    atomic_store(&current_stage, stage);
    atomic_store(&resident_now, resident);
    raise_watermark(resident > peak ? resident : peak);
    rewrite_marker();
}

void kcr_sample(int64_t resident, int64_t rewrite_step) {
    if (!atomic_load(&ready)) return;
    atomic_store(&resident_now, resident);
    raise_watermark(resident);
    if (atomic_load(&watermark) - atomic_load(&written_watermark) >= rewrite_step) rewrite_marker();
}

int64_t kcr_watermark(void) { return atomic_load(&ready) ? atomic_load(&watermark) : 0; }

void kcr_end(int remove_marker) {
    if (!atomic_load(&claimed)) return;
    atomic_store(&ready, 0);
    while (atomic_load(&writers) > 0) {
    }
    if (marker_fd >= 0) {
        // Unlinked while the lock is still held, so no other process can claim a marker being removed.
        if (remove_marker) unlink(marker_path);
        close(marker_fd);
        marker_fd = -1;
    }
    atomic_store(&claimed, 0);
}
