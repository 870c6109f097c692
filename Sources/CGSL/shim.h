// The parts of GSL that BGBench uses, plus small accessors for what Swift 6
// cannot import directly: GSL's generator types are mutable C globals
// (`gsl_rng_mt19937`, ...), which strict concurrency rejects, so they are
// read through `static inline` functions instead.
#ifndef BGBENCH_CGSL_SHIM_H
#define BGBENCH_CGSL_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rstat.h>
#include <gsl/gsl_math.h>

/// Mersenne Twister MT19937 (the generator every random stream uses).
static inline const gsl_rng_type *cgsl_rng_mt19937(void) { return gsl_rng_mt19937; }

/// Turns GSL's abort-on-error handler off; afterwards every GSL function
/// reports failures through its return status only. Returns the old handler.
static inline void cgsl_disable_abort_handler(void) { (void)gsl_set_error_handler_off(); }

/// The state of GSL's MT19937 generator, laid out exactly as in GSL's
/// `rng/mt.c` (`mt_state_t`). `gsl_rng_set` seeds from only 32 bits, which
/// makes collisions between a million streams likely; BGBench fills the
/// whole 624-word state from a 64-bit key instead (see `RandomStream`).
typedef struct {
    unsigned long mt[624];
    int mti;
} cgsl_mt19937_state;

/// Size in bytes of the state above, to check against `gsl_rng_size`.
static inline size_t cgsl_mt19937_state_size(void) { return sizeof(cgsl_mt19937_state); }

/// Overwrites an MT19937 generator's state with 624 32-bit words and marks it
/// as needing a fresh tempering pass (mti = 624), as GSL's own seeding does.
static inline void cgsl_mt19937_set_state(gsl_rng *r, const uint32_t *words) {
    cgsl_mt19937_state *s = (cgsl_mt19937_state *)gsl_rng_state(r);
    for (int i = 0; i < 624; i++) s->mt[i] = words[i];
    s->mti = 624;
}

#endif
