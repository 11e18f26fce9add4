// The label's glyph outlines from DejaVu Sans Bold, written by scripts/make-glyphs.py. Kept in
// C because a byte array compiles at once, where a Swift array literal of this size would take
// minutes to type-check. The format is described in the script and read by RingRaster.
#ifndef RING_FONT_DATA_H
#define RING_FONT_DATA_H

/// The table's bytes, valid for the life of the process.
const unsigned char *ring_font_data(void);
/// Their count.
unsigned long ring_font_data_size(void);

#endif
