// A software prefetch hint, for Swift code that knows which memory it will read a little later
// (the transition detector's looks at fences). A hint only: it never faults, changes no value
// and may be ignored by the processor. And the lane mask of a group of eight due readings,
// which Swift's SIMD types cannot express in one instruction.
#ifndef GEOFENCE_PREFETCH_H
#define GEOFENCE_PREFETCH_H

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Asks the processor to bring the cache line holding `address` into its caches for reading.
static inline __attribute__((always_inline)) void geofence_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// The lanes of eight 16-bit readings (`readings[0..<8]`, any alignment) that are at most
/// `odometer`: bit i set when `readings[i] <= odometer` (bits 8 and up clear). With SSE2 one
/// saturating subtraction, one compare, one pack and one byte mask (Swift's SIMD types have no
/// lane mask); elsewhere a loop.
static inline __attribute__((always_inline)) unsigned geofence_due_lanes(const uint16_t *readings, uint16_t odometer) {
#if defined(__SSE2__)
    __m128i group = _mm_loadu_si128((const __m128i *)(const void *)readings);
    __m128i over = _mm_subs_epu16(group, _mm_set1_epi16((short)odometer));  // 0 where due
    __m128i due = _mm_cmpeq_epi16(over, _mm_setzero_si128());
    return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(due, _mm_setzero_si128()));
#else
    unsigned mask = 0;
    for (int i = 0; i < 8; i++) mask |= (unsigned)(readings[i] <= odometer) << i;
    return mask;
#endif
}

#endif
