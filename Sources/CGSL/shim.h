// The parts of GSL that BGBench uses, plus small accessors for what Swift 6
// cannot import directly: GSL's generator types are mutable C globals
// (`gsl_rng_mt19937`, ...), which strict concurrency rejects, so they are
// read through `static inline` functions instead.
#ifndef BGBENCH_CGSL_SHIM_H
#define BGBENCH_CGSL_SHIM_H

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

#endif
