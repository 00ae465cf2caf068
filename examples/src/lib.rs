//! Shared helpers for rt's example programs and benchmarks.
