// The PNG engine's embedded data, written by scripts/generators/make-font-data.py. Kept in C because a
// byte array compiles at once, where a Swift array literal of this size would take minutes to
// type-check.
#ifndef RING_FONT_DATA_H
#define RING_FONT_DATA_H

/// DejaVu Sans Bold as a TrueType font file, valid for the life of the process.
const unsigned char *ring_font_data(void);
/// Its size in bytes.
unsigned long ring_font_data_size(void);

/// Each combining mark's canonical combining class: `scalar << 8 | class`, sorted by scalar.
const unsigned int *ring_combining_classes(void);
unsigned long ring_combining_class_count(void);
/// Canonical decompositions, one level: (composite, first, second or 0), sorted by composite.
const unsigned int *ring_decompositions(void);
unsigned long ring_decomposition_count(void);
/// The pairs that compose under NFC: (first, second, composite), sorted by (first, second).
const unsigned int *ring_compositions(void);
unsigned long ring_composition_count(void);

#endif
