//! Algorithms, generic over `Game`.
