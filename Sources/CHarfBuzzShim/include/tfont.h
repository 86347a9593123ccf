// CHarfBuzzShim: a C API over Debian's HarfBuzz and ICU, so Swift can measure text the way Chromium does.
//
// Why it exists: text width needs HarfBuzz's shaping over OpenType fonts (built-in OpenType functions,
// no FreeType) and ICU's Unicode algorithms (UAX #9 bidi levels, UAX #29 grapheme clusters); both are C
// APIs with headers Swift should not see. The shim keeps one immutable hb_face per font face and one
// immutable hb_font per face and size (both safe to share between threads), and a per-thread scratch
// (shaping buffer, bidi and break iterators) freed when the thread ends. Its header uses only plain C
// types. Every public symbol is prefixed `tfont_`.
#ifndef TFONT_H
#define TFONT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Asks the processor to bring the cache line at `address` in (a hint: it never faults, not even for NULL), for
/// data the caller reads soon after, such as a kept paragraph a list reaches a few paragraphs later.
static inline void tfont_prefetch(const void *address) { __builtin_prefetch(address); }

/// One face of a font file: immutable once created, shared by every thread.
typedef struct tfont_face tfont_face;
/// A face at one size (a scale in 1/65536 px per em): immutable once created, shared by every thread.
typedef struct tfont_font tfont_font;

/// What the face's tables say, in font units.
typedef struct {
    /// Units per em (head).
    uint32_t units_per_em;
    /// OS/2 usWeightClass (400 when there is no OS/2 table).
    int32_t weight;
    /// OS/2 usWidthClass, 1–9 (5 when there is no OS/2 table).
    int32_t width_class;
    /// 1 when OS/2 fsSelection has the italic or the oblique bit.
    int32_t italic;
    /// Ascender, descender (negative below the baseline) and line gap: hhea's, or OS/2's typographic
    /// ones when its USE_TYPO_METRICS bit is set.
    int32_t ascender;
    int32_t descender;
    int32_t line_gap;
    /// 1 when the face has color glyphs (CBDT, sbix or COLR tables): an emoji face.
    int32_t color;
} tfont_face_facts;

/// The number of faces in a font file (a collection has several); 0 when the bytes are not a font.
unsigned tfont_face_count(const uint8_t *data, size_t length);

/// Face `index` of a font file; the bytes are copied. NULL when it is not a usable face (no glyphs).
tfont_face *tfont_face_create(const uint8_t *data, size_t length, unsigned index);

/// A font file's bytes, shared by its faces and released with the last of them.
typedef struct tfont_blob tfont_blob;

/// Takes over a read-only mapping of a whole font file (from mmap): it is unmapped when the blob and
/// every face made from it are destroyed. NULL (and the mapping unmapped) when memory runs out.
tfont_blob *tfont_blob_adopt_mapping(void *base, size_t length);
/// Takes over `length` bytes at `base`, allocated with malloc (a font held in memory): freed when the blob and
/// every face made from it are destroyed. NULL (and the bytes freed) when memory runs out.
tfont_blob *tfont_blob_adopt_memory(void *base, size_t length);
void tfont_blob_destroy(tfont_blob *blob);
/// The blob's bytes and their length.
const void *tfont_blob_data(const tfont_blob *blob, size_t *length);
/// The number of faces in the blob (a collection has several); 0 when it is not a font.
unsigned tfont_blob_face_count(const tfont_blob *blob);
/// Face `index` of the blob, sharing its bytes. NULL when it is not a usable face.
tfont_face *tfont_face_create_from_blob(const tfont_blob *blob, unsigned index);
void tfont_face_destroy(tfont_face *face);

/// The face's family name as UTF-8 (name ID 16, else ID 1, English): the bytes it needs; at most
/// `capacity` are written. 0 when the face names no family.
size_t tfont_face_family(const tfont_face *face, char *buffer, size_t capacity);

void tfont_face_get_facts(const tfont_face *face, tfont_face_facts *facts);

/// A variation axis of a face (fvar), in its design units.
typedef struct {
    uint32_t tag;
    float minimum;
    float default_value;
    float maximum;
    /// 1 when the font asks that the axis not be shown to users (fvar's HIDDEN_AXIS flag).
    int32_t hidden;
} tfont_axis;

/// The face's variation axes, in fvar's order: writes at most `capacity` and returns how many there are
/// (0 for a face that does not vary).
unsigned tfont_face_axes(const tfont_face *face, tfont_axis *axes, unsigned capacity);
/// The number of named instances in fvar.
unsigned tfont_face_instance_count(const tfont_face *face);
/// Named instance `index`'s subfamily name as UTF-8 (English, else the first): the bytes it needs; at most
/// `capacity` are written. 0 when it has none.
size_t tfont_face_instance_name(const tfont_face *face, unsigned index, char *buffer, size_t capacity);
/// Named instance `index`'s design coordinates, one per axis in fvar's order: writes at most `capacity` and
/// returns the axis count.
unsigned tfont_face_instance_coordinates(const tfont_face *face, unsigned index, float *coordinates, unsigned capacity);

/// An OpenType feature's value, or a variation axis's coordinate.
typedef struct {
    uint32_t tag;
    float value;
} tfont_setting;

/// The face at `scale` (size × 65536) with the variations given (clamped to its axes; later settings of an axis
/// win) and the features every shaping applies (after HarfBuzz's defaults; later ones win): HarfBuzz's OpenType
/// functions and positioning at the size, and each glyph's advance as Chromium gets it (FreeType's 16.16
/// fixed-point scaling of the design advance at Skia's strike, a float). NULL when memory ran out.
tfont_font *tfont_font_create(
    const tfont_face *face, int32_t scale, const tfont_setting *variations, size_t variation_count,
    const tfont_setting *features, size_t feature_count);
void tfont_font_destroy(tfont_font *font);

/// 1 when the font shapes text[start ..< start+count] alone with no .notdef glyph, else 0; -1 when
/// memory ran out. Read off the cmap without shaping when that decides it (every scalar has a glyph, or
/// one has none that HarfBuzz could replace), so most clusters cost one lookup per scalar.
int tfont_font_covers(const tfont_font *font, const uint32_t *text, size_t length, size_t start, size_t count);

/// Shapes text[start ..< start+count] (the rest of `text` is context) in the direction (`rtl` 0/1) and
/// script (an ISO 15924 tag as HarfBuzz spells it) given, with the font's default features, and stores
/// the sum of the glyphs' x advances in 1/65536 px. Returns 0, or -1 when memory ran out.
int tfont_font_shape(
    const tfont_font *font, const uint32_t *text, size_t length, size_t start, size_t count, int rtl,
    uint32_t script, int64_t *advance);

/// Shapes text[start ..< start+count] as `tfont_font_shape` does and attributes each glyph to the
/// scalar that starts its cluster: `advances[i - start]` is the sum of the x advances (1/65536 px) of
/// the glyphs of the cluster that starts at scalar i (0 inside a cluster), and `flags[i - start]` has
/// bit 0 set where a cluster starts and bit 1 where HarfBuzz marks breaking before i unsafe (both
/// sides would have to be shaped again). A color bitmap face's glyphs advance by their strike's
/// advance scaled to the size, as FreeType and Skia give it to Chromium. Returns 0, or -1 when
/// memory ran out.
int tfont_font_shape_clusters(
    const tfont_font *font, const uint32_t *text, size_t length, size_t start, size_t count, int rtl,
    uint32_t script, int64_t *advances, uint8_t *flags);

/// 1 when the font's face shapes each space-separated word of a text in `script` (an ISO 15924 tag as HarfBuzz
/// spells it) as it shapes it within a run, else 0. Rule (Blink's HarfBuzzFace::HasSpaceInLigaturesOrKerning,
/// stricter): a script HarfBuzz shapes with its default shaper (Common, Latin, Greek, Cyrillic, Armenian, Georgian,
/// Han, Hiragana, Katakana); no GSUB or GPOS lookup a feature of the script's tables may apply reads or writes the
/// space glyph (as HarfBuzz collects their glyphs), may skip it (IgnoreBaseGlyphs) or may match it as a class-based
/// rule's class 0; the kern table, if any, is OpenType's pair lists without it; no AAT layout table; the face maps
/// U+0020. Found once per face and script (a bounded number of reads of its tables) and remembered with the face.
int tfont_font_shapes_words_alone(const tfont_font *font, uint32_t script);

/// Per scalar: its UAX #14 line-break class (ICU's ULineBreak value) and a set of bits:
/// TFONT_LETTER, TFONT_MARK, TFONT_NUMBER (general categories L, M, N), TFONT_EMOJI_PRESENTATION,
/// TFONT_EAST_ASIAN (East_Asian_Width F, W or H), TFONT_INITIAL_PUNCTUATION, TFONT_FINAL_PUNCTUATION
/// (general categories Pi, Pf).
enum {
    TFONT_LETTER = 1, TFONT_MARK = 2, TFONT_NUMBER = 4, TFONT_EMOJI_PRESENTATION = 8, TFONT_EAST_ASIAN = 16,
    TFONT_INITIAL_PUNCTUATION = 32, TFONT_FINAL_PUNCTUATION = 64
};
void tfont_char_classes(const uint32_t *text, size_t length, uint8_t *line_break, uint8_t *bits);

/// The pair table Blink builds for characters U+0021–U+00FF: table[(a - 0x21) * 223 + (b - 0x21)] is 1
/// where ICU's line breaker (locale "en") finds a boundary between a and b given alone. Computed once
/// per process; NULL when ICU failed.
const uint8_t *tfont_line_pair_table(void);

/// ICU's line-break boundaries (locale "en@lb=normal": kana and the prolonged sound mark breakable
/// before) of text[start ..< end] seen alone, as Chromium's line breaker sees the text from a line
/// start: boundary[i - start] = 1 for each boundary i in (start, end). Returns 0, or -1 when ICU failed.
int tfont_line_boundaries(const uint32_t *text, size_t start, size_t end, uint8_t *boundary);

/// The analysis of a text of `length` scalars: for each scalar its UAX #9 embedding level (paragraph
/// direction from the first strong character, left to right without one), 1 where a UAX #29 extended
/// grapheme cluster starts, and its Unicode script (an ISO 15924 tag; Zyyy common, Zinh inherited).
/// Returns 0, or -1 when ICU failed (memory).
int tfont_analyze(const uint32_t *text, size_t length, uint8_t *levels, uint8_t *cluster_starts, uint32_t *scripts);

/// The bidi paragraphs of a text of `length` scalars as Blink has them for `unicode-bidi: plaintext` (each ends after a
/// line feed) and their directions (UAX #9 P2, P3: the first strong character, L, R or AL, the characters between an
/// isolate initiator and its matching PDI skipped): writes each paragraph's start (the first's, 0, included) into `starts` and its direction into
/// `directions` (0 left to right, 1 right to left, 2 no strong character; the first paragraph's from its text before a
/// carriage return, as ICU's first paragraph ends there), at most `capacity` of them, and the text's direction (its first
/// strong character's, as `dir="auto"` has it) into `first_strong`; returns how many paragraphs the text has (1 for an
/// empty one).
size_t tfont_bidi_paragraphs(
    const uint32_t *text, size_t length, uint32_t *starts, uint8_t *directions, size_t capacity, uint8_t *first_strong);

/// UAX #9's paired brackets (BidiBrackets.txt, ICU's data): 1 when `scalar` is an opening bracket, 2 a closing one,
/// 0 neither; `pair` is the bracket it pairs with (itself when neither).
int tfont_paired_bracket(uint32_t scalar, uint32_t *pair);

/// A common character's Script_Extensions (ICU's data) as ISO 15924 tags, Blink's preferred first (the smallest
/// script code, Latin only when alone), at most `capacity`: their count, 0 for a character that is not common or has
/// none beyond common.
int tfont_script_extensions(uint32_t scalar, uint32_t *scripts, int capacity);

#ifdef __cplusplus
}
#endif

#endif
