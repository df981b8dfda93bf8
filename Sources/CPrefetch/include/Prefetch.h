// A software prefetch hint, for Swift code that knows which memory it will read a little later
// (the transition detector's looks at fences). A hint only: it never faults, changes no value
// and may be ignored by the processor.
#ifndef GEOFENCE_PREFETCH_H
#define GEOFENCE_PREFETCH_H

/// Asks the processor to bring the cache line holding `address` into its caches for reading.
static inline __attribute__((always_inline)) void geofence_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
