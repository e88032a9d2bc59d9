/* no_slp.h - included first by the files whose hot functions take or
 * return vectors (steer_vec2) by value (internal).
 *
 * Such a vector travels in two registers. GCC's SLP vectorizer pairs the
 * halves through the stack: two 8-byte stores, then one 16-byte load that
 * must wait until both stores retire (a store-forwarding stall). That wait
 * was most of a feeler's start and a fifth of a sparse ORCA step. These
 * files are compiled as scalar code instead; the results are the same bits
 * (neither way reassociates). */
#ifndef STEER_NO_SLP_H
#define STEER_NO_SLP_H

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

#endif
