#ifndef KOTEN_CCRASHRECORD_H
#define KOTEN_CCRASHRECORD_H
// The process-wide run state that must survive a crash: the run marker (a small fixed-size text file
// rewritten in place at stage boundaries) and the fatal-signal handler that writes a crash record.
//
// Everything the handler touches is prepared beforehand: the crash record's path is formatted when the run
// begins, the run's stage and resident watermark live in lock-free atomics, and the handler formats integers
// by hand and calls only async-signal-safe functions (open, write, close, clock_gettime, sigaction, raise).
// One run owns this state at a time (kcr_begin fails while another run is active).
#include <stdint.h>

/// Record layout version written on the first line of markers and crash records.
#define KCR_RECORD_VERSION 1
/// Longest run id and stage name kept (longer ones are cut).
#define KCR_RUN_ID_WIDTH 40
#define KCR_STAGE_WIDTH 24

/// Starts a run: creates `marker_path` (mode 0644), takes an exclusive flock on it for the life of the run,
/// and writes the first record. With `fatal_handlers` != 0, installs (once per process) handlers for
/// SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT on an alternate signal stack of the calling thread; with
/// `termination_handlers` != 0 also for SIGINT, SIGTERM and SIGHUP — but only where their disposition is the
/// default. Returns 0, -1 if another run is active, or -2 if the marker cannot be created (errno set).
int kcr_begin(const char *marker_path, const char *crash_path, const char *run_id, int64_t start_ms,
              int fatal_handlers, int termination_handlers);

/// Records a stage boundary: `stage` becomes the current stage (the pointer is kept: pass a string that lives
/// for the rest of the process), `resident` the latest resident bytes, and the watermark the highest of itself,
/// `resident` and `peak` (a kernel high-water mark the caller knows was reached in this run, else 0); the
/// marker is rewritten in place (one pwrite). No-op when no run is active.
void kcr_stage(const char *stage, int64_t resident, int64_t peak);

/// Records a timer sample of resident bytes. Rewrites the marker only when the watermark rose by at least
/// `rewrite_step` bytes since the marker was last written.
void kcr_sample(int64_t resident, int64_t rewrite_step);

/// The highest resident bytes recorded in this run (0 when no run is active).
int64_t kcr_watermark(void);

/// Ends the run: the marker is closed (releasing its lock) and, if `remove_marker` != 0, deleted. The
/// handlers stay installed but write nothing until the next kcr_begin.
void kcr_end(int remove_marker);

/// Opens `path` and tries to take its flock without waiting. Returns the open descriptor (>= 0) when no live
/// process holds the lock (the caller owns the lock until it closes the descriptor), -1 when a live process
/// holds it, -2 when the file cannot be opened or locked for another reason (errno set).
int kcr_claim(const char *path);

#endif
