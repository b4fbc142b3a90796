//! File operations on the sandbox's filesystem.
