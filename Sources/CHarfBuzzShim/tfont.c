// The shim over HarfBuzz (faces, fonts, shaping) and ICU (bidi levels, grapheme clusters); see tfont.h.
#include "tfont.h"

#include <harfbuzz/hb-aat.h>
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>

// The scripts whose words may shape alone (`word_scripts`, below).
enum { WORD_SCRIPT_COUNT = 9 };

struct tfont_face {
    hb_face_t *face;
    /// A color bitmap face (CBDT/CBLC): each glyph's advance in its strike, in px at `bitmap_ppem`
    /// (0: the glyph has no bitmap); NULL for other faces.
    uint8_t *bitmap_advance;
    unsigned bitmap_glyphs;
    unsigned bitmap_ppem;
    /// Per script of `word_scripts`, whether its words shape alone as within a run (`tfont_font_shapes_words_alone`):
    /// 0 until found, then 1 (yes) or 2 (no).
    _Atomic uint8_t words_alone[WORD_SCRIPT_COUNT];
};

struct tfont_font {
    /// The shaping font: at the size, with Chromium's advances (below).
    hb_font_t *font;
    /// Its parent: design units, with the variations.
    hb_font_t *unscaled;
    /// The face it was made from (which outlives it), for its bitmap advances.
    const tfont_face *face;
    int32_t scale;
    /// FreeType's 16.16 scale from design units to px at Skia's strike, and the strike's factor to the size.
    int64_t x_scale;
    float strike_to_size;
    /// Features every shaping applies (CSS font-feature-settings), after HarfBuzz's defaults.
    hb_feature_t *features;
    unsigned feature_count;
};

// Per-thread scratch: one shaping buffer, one bidi object, grapheme and line iterators, UTF-16 room.
typedef struct {
    hb_buffer_t *buffer;
    UBiDi *bidi;
    UBreakIterator *graphemes;
    UBreakIterator *lines;
    UChar *utf16;
    int32_t *scalar_at;
    size_t capacity;
} tfont_scratch;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *pointer) {
    tfont_scratch *scratch = pointer;
    if (!scratch) return;
    hb_buffer_destroy(scratch->buffer);
    if (scratch->bidi) ubidi_close(scratch->bidi);
    if (scratch->graphemes) ubrk_close(scratch->graphemes);
    if (scratch->lines) ubrk_close(scratch->lines);
    free(scratch->utf16);
    free(scratch->scalar_at);
    free(scratch);
}

static void scratch_key_create(void) { (void)pthread_key_create(&scratch_key, scratch_free); }

static tfont_scratch *scratch_get(void) {
    pthread_once(&scratch_once, scratch_key_create);
    tfont_scratch *scratch = pthread_getspecific(scratch_key);
    if (scratch) return scratch;
    scratch = calloc(1, sizeof *scratch);
    if (!scratch) return NULL;
    scratch->buffer = hb_buffer_create();
    if (!hb_buffer_allocation_successful(scratch->buffer) || pthread_setspecific(scratch_key, scratch) != 0) {
        scratch_free(scratch);
        return NULL;
    }
    return scratch;
}

// Rule: room for a text of `length` scalars in UTF-16 (at most two units each).
static int scratch_reserve(tfont_scratch *scratch, size_t length) {
    size_t units = length * 2 + 1;
    if (units <= scratch->capacity) return 0;
    UChar *utf16 = realloc(scratch->utf16, units * sizeof *utf16);
    if (!utf16) return -1;
    scratch->utf16 = utf16;
    int32_t *scalar_at = realloc(scratch->scalar_at, units * sizeof *scalar_at);
    if (!scalar_at) return -1;
    scratch->scalar_at = scalar_at;
    scratch->capacity = units;
    return 0;
}

static uint32_t be32(const uint8_t *bytes, size_t offset) {
    return ((uint32_t)bytes[offset] << 24) | ((uint32_t)bytes[offset + 1] << 16) | ((uint32_t)bytes[offset + 2] << 8) |
           bytes[offset + 3];
}
static unsigned u16(const uint8_t *bytes, size_t offset) { return ((unsigned)bytes[offset] << 8) | bytes[offset + 1]; }

// The advance of one glyph's bitmap in CBDT: image formats 17 (small metrics) and 18 (big metrics)
// carry it with the image; 0 when the record is out of bounds or of another format.
static uint8_t cbdt_advance(const uint8_t *cbdt, size_t cbdt_length, unsigned image_format, size_t offset) {
    if (image_format == 17 && offset + 5 <= cbdt_length) return cbdt[offset + 4];
    if (image_format == 18 && offset + 8 <= cbdt_length) return cbdt[offset + 4];
    return 0;
}

// Rule: the strike with the largest ppem of CBLC, and for each glyph in it the
// advance its metrics give (index formats 1–5; big metrics in the index for formats 2 and 5).
static void load_bitmap_advances(tfont_face *result) {
    hb_blob_t *cblc_blob = hb_face_reference_table(result->face, HB_TAG('C', 'B', 'L', 'C'));
    hb_blob_t *cbdt_blob = hb_face_reference_table(result->face, HB_TAG('C', 'B', 'D', 'T'));
    unsigned cblc_length = 0, cbdt_length = 0;
    const uint8_t *cblc = (const uint8_t *)hb_blob_get_data(cblc_blob, &cblc_length);
    const uint8_t *cbdt = (const uint8_t *)hb_blob_get_data(cbdt_blob, &cbdt_length);
    unsigned glyphs = hb_face_get_glyph_count(result->face);
    if (!cblc || !cbdt || cblc_length < 8 || glyphs == 0) goto done;
    uint32_t sizes = be32(cblc, 4);
    size_t best = 0;
    unsigned best_ppem = 0;
    for (uint32_t i = 0; i < sizes && 8 + (size_t)(i + 1) * 48 <= cblc_length; i++) {
        size_t record = 8 + (size_t)i * 48;
        unsigned ppem = cblc[record + 45];
        if (ppem > best_ppem) { best_ppem = ppem; best = record; }
    }
    if (best_ppem == 0) goto done;
    uint8_t *advance = calloc(glyphs, 1);
    if (!advance) goto done;
    size_t array = be32(cblc, best), count = be32(cblc, best + 8);
    for (size_t k = 0; k < count && array + (k + 1) * 8 <= cblc_length; k++) {
        unsigned first = u16(cblc, array + k * 8), last = u16(cblc, array + k * 8 + 2);
        size_t sub = array + be32(cblc, array + k * 8 + 4);
        if (sub + 8 > cblc_length || last < first || last >= glyphs) continue;
        unsigned index_format = u16(cblc, sub), image_format = u16(cblc, sub + 2);
        size_t image_base = be32(cblc, sub + 4);
        if (index_format == 1 || index_format == 3) {
            size_t width = index_format == 1 ? 4 : 2;
            for (unsigned g = first; g <= last; g++) {
                size_t at = sub + 8 + (size_t)(g - first) * width;
                if (at + width > cblc_length) break;
                size_t offset = index_format == 1 ? be32(cblc, at) : u16(cblc, at);
                advance[g] = cbdt_advance(cbdt, cbdt_length, image_format, image_base + offset);
            }
        } else if ((index_format == 2 || index_format == 5) && sub + 20 <= cblc_length) {
            uint8_t metrics_advance = cblc[sub + 12 + 4];
            if (index_format == 2) {
                for (unsigned g = first; g <= last; g++) advance[g] = metrics_advance;
            } else {
                uint32_t listed = sub + 24 <= cblc_length ? be32(cblc, sub + 20) : 0;
                for (uint32_t n = 0; n < listed && sub + 24 + (size_t)(n + 1) * 2 <= cblc_length; n++) {
                    unsigned g = u16(cblc, sub + 24 + (size_t)n * 2);
                    if (g < glyphs) advance[g] = metrics_advance;
                }
            }
        } else if (index_format == 4 && sub + 12 <= cblc_length) {
            uint32_t listed = be32(cblc, sub + 8);
            for (uint32_t n = 0; n < listed && sub + 12 + (size_t)(n + 1) * 4 <= cblc_length; n++) {
                unsigned g = u16(cblc, sub + 12 + (size_t)n * 4);
                size_t offset = u16(cblc, sub + 12 + (size_t)n * 4 + 2);
                if (g < glyphs) advance[g] = cbdt_advance(cbdt, cbdt_length, image_format, image_base + offset);
            }
        }
    }
    result->bitmap_advance = advance;
    result->bitmap_glyphs = glyphs;
    result->bitmap_ppem = best_ppem;
done:
    hb_blob_destroy(cblc_blob);
    hb_blob_destroy(cbdt_blob);
}

// A usable face (glyphs, units per em), immutable, with its bitmap advances; NULL otherwise.
static tfont_face *face_wrap(hb_face_t *face) {
    if (hb_face_get_glyph_count(face) == 0 || hb_face_get_upem(face) == 0) {
        hb_face_destroy(face);
        return NULL;
    }
    hb_face_make_immutable(face);
    tfont_face *result = calloc(1, sizeof *result);
    if (!result) {
        hb_face_destroy(face);
        return NULL;
    }
    result->face = face;
    load_bitmap_advances(result);
    return result;
}

unsigned tfont_face_count(const uint8_t *data, size_t length) {
    if (length > UINT32_MAX) return 0;
    hb_blob_t *blob = hb_blob_create_or_fail((const char *)data, (unsigned)length, HB_MEMORY_MODE_READONLY, NULL, NULL);
    if (!blob) return 0;
    unsigned count = hb_face_count(blob);
    hb_blob_destroy(blob);
    return count;
}

tfont_face *tfont_face_create(const uint8_t *data, size_t length, unsigned index) {
    if (length == 0 || length > UINT32_MAX) return NULL;
    char *copy = malloc(length);
    if (!copy) return NULL;
    memcpy(copy, data, length);
    hb_blob_t *blob = hb_blob_create_or_fail(copy, (unsigned)length, HB_MEMORY_MODE_READONLY, copy, free);
    if (!blob) {
        free(copy);
        return NULL;
    }
    hb_face_t *face = hb_face_create(blob, index);
    hb_blob_destroy(blob);
    return face_wrap(face);
}

struct tfont_blob {
    hb_blob_t *blob;
    void *base;
    size_t length;
    /// 1 when the bytes are a read-only file mapping (their pages can be given back to the page cache).
    int mapped;
};

typedef struct {
    void *base;
    size_t length;
} tfont_mapping;

static void mapping_release(void *pointer) {
    tfont_mapping *mapping = pointer;
    munmap(mapping->base, mapping->length);
    free(mapping);
}

tfont_blob *tfont_blob_adopt_mapping(void *base, size_t length) {
    tfont_mapping *mapping = malloc(sizeof *mapping);
    tfont_blob *result = malloc(sizeof *result);
    if (!mapping || !result || length == 0 || length > UINT32_MAX) {
        free(mapping);
        free(result);
        munmap(base, length);
        return NULL;
    }
    mapping->base = base;
    mapping->length = length;
    // On failure HarfBuzz calls the destroy function itself.
    hb_blob_t *blob = hb_blob_create_or_fail((const char *)base, (unsigned)length, HB_MEMORY_MODE_READONLY, mapping, mapping_release);
    if (!blob) {
        free(result);
        return NULL;
    }
    hb_blob_make_immutable(blob);
    result->blob = blob;
    result->base = base;
    result->length = length;
    result->mapped = 1;
    return result;
}

tfont_blob *tfont_blob_adopt_memory(void *base, size_t length) {
    tfont_blob *result = malloc(sizeof *result);
    if (!result || length == 0 || length > UINT32_MAX) {
        free(result);
        free(base);
        return NULL;
    }
    // On failure HarfBuzz calls the destroy function itself.
    hb_blob_t *blob = hb_blob_create_or_fail((const char *)base, (unsigned)length, HB_MEMORY_MODE_READONLY, base, free);
    if (!blob) {
        free(result);
        return NULL;
    }
    hb_blob_make_immutable(blob);
    result->blob = blob;
    result->base = base;
    result->length = length;
    result->mapped = 0;
    return result;
}

void tfont_blob_destroy(tfont_blob *blob) {
    if (!blob) return;
    hb_blob_destroy(blob->blob);
    free(blob);
}

const void *tfont_blob_data(const tfont_blob *blob, size_t *length) {
    *length = blob->length;
    return blob->base;
}

unsigned tfont_blob_face_count(const tfont_blob *blob) { return hb_face_count(blob->blob); }

tfont_face *tfont_face_create_from_blob(const tfont_blob *blob, unsigned index) {
    tfont_face *face = face_wrap(hb_face_create(blob->blob, index));
    // Rule: the pages loading read (a color font's bitmap metrics: all of its 10 MB) leave this
    // process's memory for the page cache; the few a shaper reads come back as it reads them. The
    // mapping is private, read-only and never written, so its bytes stay the file's. (Bytes held in
    // memory are the only copy: they stay.)
    if (blob->mapped) madvise(blob->base, blob->length, MADV_DONTNEED);
    return face;
}

void tfont_face_destroy(tfont_face *face) {
    if (!face) return;
    hb_face_destroy(face->face);
    free(face->bitmap_advance);
    free(face);
}

size_t tfont_face_family(const tfont_face *face, char *buffer, size_t capacity) {
    // Rule: the typographic family (name ID 16), else the family (name ID 1).
    hb_ot_name_id_t ids[2] = {HB_OT_NAME_ID_TYPOGRAPHIC_FAMILY, HB_OT_NAME_ID_FONT_FAMILY};
    for (int i = 0; i < 2; i++) {
        unsigned size = capacity > UINT32_MAX ? UINT32_MAX : (unsigned)capacity;
        unsigned needed = hb_ot_name_get_utf8(face->face, ids[i], HB_LANGUAGE_INVALID, &size, buffer);
        if (needed > 0) return needed;
    }
    return 0;
}

unsigned tfont_face_axes(const tfont_face *face, tfont_axis *axes, unsigned capacity) {
    unsigned total = hb_ot_var_get_axis_count(face->face);
    hb_ot_var_axis_info_t info[16];
    for (unsigned start = 0; start < total && start < capacity;) {
        unsigned count = 16;
        hb_ot_var_get_axis_infos(face->face, start, &count, info);
        if (count == 0) break;
        for (unsigned i = 0; i < count && start + i < capacity; i++) {
            axes[start + i].tag = info[i].tag;
            axes[start + i].minimum = info[i].min_value;
            axes[start + i].default_value = info[i].default_value;
            axes[start + i].maximum = info[i].max_value;
            axes[start + i].hidden = (info[i].flags & HB_OT_VAR_AXIS_FLAG_HIDDEN) ? 1 : 0;
        }
        start += count;
    }
    return total;
}

unsigned tfont_face_instance_count(const tfont_face *face) { return hb_ot_var_get_named_instance_count(face->face); }

size_t tfont_face_instance_name(const tfont_face *face, unsigned index, char *buffer, size_t capacity) {
    hb_ot_name_id_t id = hb_ot_var_named_instance_get_subfamily_name_id(face->face, index);
    if (id == HB_OT_NAME_ID_INVALID) return 0;
    unsigned size = capacity > UINT32_MAX ? UINT32_MAX : (unsigned)capacity;
    return hb_ot_name_get_utf8(face->face, id, HB_LANGUAGE_INVALID, &size, buffer);
}

unsigned tfont_face_instance_coordinates(const tfont_face *face, unsigned index, float *coordinates, unsigned capacity) {
    unsigned count = capacity;
    return hb_ot_var_named_instance_get_design_coords(face->face, index, &count, coordinates);
}

static int32_t be16(const uint8_t *bytes, unsigned offset) { return (int32_t)((bytes[offset] << 8) | bytes[offset + 1]); }
static int32_t be16s(const uint8_t *bytes, unsigned offset) { return (int16_t)(uint16_t)be16(bytes, offset); }

void tfont_face_get_facts(const tfont_face *face, tfont_face_facts *facts) {
    memset(facts, 0, sizeof *facts);
    facts->units_per_em = hb_face_get_upem(face->face);
    // Color glyphs: bitmaps (CBDT, sbix) or layered outlines (COLR).
    facts->color = face->bitmap_advance != NULL || hb_ot_color_has_png(face->face) || hb_ot_color_has_layers(face->face);
    facts->weight = 400;
    facts->width_class = 5;
    int use_typo = 0;
    hb_blob_t *os2 = hb_face_reference_table(face->face, HB_TAG('O', 'S', '/', '2'));
    unsigned os2_length = 0;
    const uint8_t *os2_bytes = (const uint8_t *)hb_blob_get_data(os2, &os2_length);
    if (os2_bytes && os2_length >= 78) {
        facts->weight = be16(os2_bytes, 4);
        facts->width_class = be16(os2_bytes, 6);
        int32_t selection = be16(os2_bytes, 62);
        // fsSelection: bit 0 italic, bit 9 oblique, bit 7 USE_TYPO_METRICS.
        facts->italic = (selection & 0x0001) || (selection & 0x0200) ? 1 : 0;
        use_typo = (selection & 0x0080) ? 1 : 0;
        if (use_typo) {
            facts->ascender = be16s(os2_bytes, 68);
            facts->descender = be16s(os2_bytes, 70);
            facts->line_gap = be16s(os2_bytes, 72);
        }
    }
    hb_blob_destroy(os2);
    if (use_typo) return;
    hb_blob_t *hhea = hb_face_reference_table(face->face, HB_TAG('h', 'h', 'e', 'a'));
    unsigned hhea_length = 0;
    const uint8_t *hhea_bytes = (const uint8_t *)hb_blob_get_data(hhea, &hhea_length);
    if (hhea_bytes && hhea_length >= 10) {
        facts->ascender = be16s(hhea_bytes, 4);
        facts->descender = be16s(hhea_bytes, 6);
        facts->line_gap = be16s(hhea_bytes, 8);
    }
    hb_blob_destroy(hhea);
}

// Rule: Chromium's glyph advance, as Skia gets it from FreeType (unhinted, linear metrics) and hands it to
// HarfBuzz. FreeType scales the design advance (HarfBuzz's, with the font's variations) by the size in 26.6
// (Skia truncates the text size to it) with its 16.16 fixed-point arithmetic: x_scale = FT_DivFix(size26.6,
// units per em), advance = FT_MulDiv(units, x_scale, 64). Skia keeps it as a float; past 256 px it measures the
// glyph at 64 px and scales that float by size / 64 (SkStrikeSpec's canonical strike); HarfBuzz gets the float
// times 65536, truncated.
static int64_t freetype_divfix(int64_t a, int64_t b) {
    int negative = (a < 0) != (b < 0);
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    int64_t q = b > 0 ? ((a << 16) + (b >> 1)) / b : 0x7FFFFFFF;
    return negative ? -q : q;
}

static int64_t freetype_muldiv(int64_t a, int64_t b, int64_t c) {
    int negative = (a < 0) != (b < 0);
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    int64_t d = c > 0 ? (a * b + (c >> 1)) / c : 0x7FFFFFFF;
    return negative ? -d : d;
}

static hb_position_t chromium_advance(const tfont_font *font, hb_codepoint_t glyph) {
    hb_position_t units = hb_font_get_glyph_h_advance(font->unscaled, glyph);
    int64_t linear = freetype_muldiv(units, font->x_scale, 64);
    float advance = (float)linear / 65536.0f;
    if (font->strike_to_size != 1.0f) advance *= font->strike_to_size;
    float position = advance * 65536.0f;
    if (position >= 2147483520.0f) return INT32_MAX;
    if (position <= -2147483520.0f) return -INT32_MAX;
    return (hb_position_t)position;
}

static hb_position_t get_h_advance(hb_font_t *hb, void *data, hb_codepoint_t glyph, void *user) {
    (void)hb;
    (void)user;
    return chromium_advance(data, glyph);
}

static void get_h_advances(
    hb_font_t *hb, void *data, unsigned count, const hb_codepoint_t *glyphs, unsigned glyph_stride,
    hb_position_t *advances, unsigned advance_stride, void *user) {
    (void)hb;
    (void)user;
    for (unsigned i = 0; i < count; i++) {
        *advances = chromium_advance(data, *glyphs);
        glyphs = (const hb_codepoint_t *)((const char *)glyphs + glyph_stride);
        advances = (hb_position_t *)((char *)advances + advance_stride);
    }
}

static hb_font_funcs_t *advance_funcs;
static pthread_once_t advance_funcs_once = PTHREAD_ONCE_INIT;

static void advance_funcs_create(void) {
    hb_font_funcs_t *funcs = hb_font_funcs_create();
    hb_font_funcs_set_glyph_h_advance_func(funcs, get_h_advance, NULL, NULL);
    hb_font_funcs_set_glyph_h_advances_func(funcs, get_h_advances, NULL, NULL);
    hb_font_funcs_make_immutable(funcs);
    advance_funcs = funcs;
}

tfont_font *tfont_font_create(
    const tfont_face *face, int32_t scale, const tfont_setting *variations, size_t variation_count,
    const tfont_setting *features, size_t feature_count) {
    if (scale < 0 || variation_count > 4096 || feature_count > 4096) return NULL;
    pthread_once(&advance_funcs_once, advance_funcs_create);
    tfont_font *result = calloc(1, sizeof *result);
    if (!result) return NULL;
    result->face = face;
    result->scale = scale;
    // The design advances, with the variations (HarfBuzz normalizes and clamps them to the axes).
    hb_font_t *unscaled = hb_font_create(face->face);
    if (unscaled == hb_font_get_empty()) {
        free(result);
        return NULL;
    }
    hb_ot_font_set_funcs(unscaled);
    unsigned upem = hb_face_get_upem(face->face);
    hb_font_set_scale(unscaled, (int)upem, (int)upem);
    if (variation_count > 0) {
        hb_variation_t *list = malloc(variation_count * sizeof *list);
        if (!list) {
            hb_font_destroy(unscaled);
            free(result);
            return NULL;
        }
        for (size_t i = 0; i < variation_count; i++) list[i] = (hb_variation_t){variations[i].tag, variations[i].value};
        hb_font_set_variations(unscaled, list, (unsigned)variation_count);
        free(list);
    }
    hb_font_make_immutable(unscaled);
    result->unscaled = unscaled;
    // Skia's strike: the text size (a float) truncated to 26.6, or 64 px past 256 px.
    float size = (float)scale / 65536.0f;
    float strike = size > 256.0f ? 64.0f : size;
    result->strike_to_size = size > 256.0f ? size / 64.0f : 1.0f;
    result->x_scale = freetype_divfix((int64_t)(strike * 64.0f), upem);
    // The shaping font: HarfBuzz's positioning at the size (16.16), these advances; everything else from the
    // unscaled font, scaled.
    hb_font_t *font = hb_font_create_sub_font(unscaled);
    hb_font_set_funcs(font, advance_funcs, result, NULL);
    hb_font_set_scale(font, scale, scale);
    hb_font_make_immutable(font);
    result->font = font;
    if (feature_count > 0) {
        result->features = malloc(feature_count * sizeof *result->features);
        if (!result->features) {
            tfont_font_destroy(result);
            return NULL;
        }
        for (size_t i = 0; i < feature_count; i++) {
            result->features[i] = (hb_feature_t){features[i].tag, (uint32_t)features[i].value, HB_FEATURE_GLOBAL_START,
                HB_FEATURE_GLOBAL_END};
        }
        result->feature_count = (unsigned)feature_count;
    }
    return result;
}

void tfont_font_destroy(tfont_font *font) {
    if (!font) return;
    hb_font_destroy(font->font);
    hb_font_destroy(font->unscaled);
    free(font->features);
    free(font);
}

static hb_buffer_t *shape(
    const tfont_font *font, const uint32_t *text, size_t length, size_t start, size_t count, int rtl, uint32_t script,
    int guess) {
    tfont_scratch *scratch = scratch_get();
    if (!scratch || length > INT32_MAX) return NULL;
    hb_buffer_t *buffer = scratch->buffer;
    hb_buffer_clear_contents(buffer);
    hb_buffer_add_utf32(buffer, text, (int)length, (unsigned)start, (int)count);
    unsigned flags = HB_BUFFER_FLAG_DEFAULT;
    if (start == 0) flags |= HB_BUFFER_FLAG_BOT;
    if (start + count == length) flags |= HB_BUFFER_FLAG_EOT;
    hb_buffer_set_flags(buffer, (hb_buffer_flags_t)flags);
    if (guess) {
        hb_buffer_guess_segment_properties(buffer);
    } else {
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
        hb_buffer_set_script(buffer, (hb_script_t)script);
    }
    // A fixed language, so that the process's locale never changes a result.
    hb_buffer_set_language(buffer, hb_language_from_string("en", 2));
    hb_shape(font->font, buffer, font->features, font->feature_count);
    if (!hb_buffer_allocation_successful(buffer)) return NULL;
    return buffer;
}

// Rule: a scalar HarfBuzz may show without the font's own glyph for it: one it hides
// (default-ignorable), one it replaces (a space by the space glyph, U+2011 by U+2010), or one
// normalization may replace (it has a canonical decomposition, or it composes with a scalar beside it).
static int replaceable(uint32_t scalar, const uint32_t *cluster, size_t count, size_t at) {
    if (u_hasBinaryProperty((UChar32)scalar, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) return 1;
    if (u_charType((UChar32)scalar) == U_SPACE_SEPARATOR || scalar == 0x2011) return 1;
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&status);
    if (U_FAILURE(status)) return 1;
    UChar decomposition[8];
    if (unorm2_getRawDecomposition(nfc, (UChar32)scalar, decomposition, 8, &status) >= 0 || status == U_BUFFER_OVERFLOW_ERROR) {
        return 1;
    }
    if (u_getIntPropertyValue((UChar32)scalar, UCHAR_NFC_QUICK_CHECK) != UNORM_YES) return 1;
    for (size_t i = at + 1; i < count; i++) {
        if (unorm2_composePair(nfc, (UChar32)scalar, (UChar32)cluster[i]) >= 0) return 1;
    }
    return 0;
}

int tfont_font_covers(const tfont_font *font, const uint32_t *text, size_t length, size_t start, size_t count) {
    if (start > length || count > length - start) return 0;
    // Rule: the answer is read off the font's cmap where shaping could not change it: every
    // scalar has a glyph (or is one HarfBuzz shows without it), or one has none and nothing replaces it.
    const uint32_t *cluster = text + start;
    int certain = 1;
    for (size_t i = 0; i < count; i++) {
        hb_codepoint_t glyph = 0;
        if (hb_font_get_nominal_glyph(font->font, cluster[i], &glyph) && glyph != 0) continue;
        if (!replaceable(cluster[i], cluster, count, i)) return 0;
        certain = 0;
    }
    if (certain) return 1;
    // Otherwise the cluster is shaped alone and checked for .notdef.
    hb_buffer_t *buffer = shape(font, cluster, count, 0, count, 0, 0, 1);
    if (!buffer) return -1;
    unsigned glyphs = 0;
    const hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &glyphs);
    for (unsigned i = 0; i < glyphs; i++) {
        if (infos[i].codepoint == 0) return 0;
    }
    return 1;
}

int tfont_font_shape(
    const tfont_font *font, const uint32_t *text, size_t length, size_t start, size_t count, int rtl,
    uint32_t script, int64_t *advance) {
    hb_buffer_t *buffer = shape(font, text, length, start, count, rtl, script, 0);
    if (!buffer) return -1;
    unsigned glyphs = 0;
    const hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, &glyphs);
    int64_t sum = 0;
    for (unsigned i = 0; i < glyphs; i++) sum += positions[i].x_advance;
    *advance = sum;
    return 0;
}

// ASCII's scripts, read off HarfBuzz's Unicode functions once.
static uint32_t ascii_scripts[0x80];
static pthread_once_t ascii_scripts_once = PTHREAD_ONCE_INIT;

static void ascii_scripts_fill(void) {
    hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
    for (uint32_t c = 0; c < 0x80; c++) ascii_scripts[c] = (uint32_t)hb_unicode_script(unicode, c);
}

int tfont_analyze(const uint32_t *text, size_t length, uint8_t *levels, uint8_t *cluster_starts, uint32_t *scripts) {
    if (length == 0) return 0;
    tfont_scratch *scratch = scratch_get();
    if (!scratch || length > INT32_MAX / 2 - 1 || scratch_reserve(scratch, length) != 0) return -1;
    hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
    int ascii = 1;
    for (size_t i = 0; i < length && ascii; i++) ascii = text[i] < 0x80;
    if (ascii) {
        // Rule: ASCII has no right-to-left or Arabic letter, so every level is the left-to-right paragraph's 0
        // (UAX #9 W7 makes each European number L after the start of the paragraph); each scalar is a grapheme
        // cluster but a line feed after a carriage return (UAX #29 GB3).
        pthread_once(&ascii_scripts_once, ascii_scripts_fill);
        for (size_t i = 0; i < length; i++) {
            scripts[i] = ascii_scripts[text[i]];
            levels[i] = 0;
            cluster_starts[i] = !(i > 0 && text[i] == 0x0A && text[i - 1] == 0x0D);
        }
        return 0;
    }
    // UTF-16 for ICU, remembering the scalar each unit belongs to.
    int32_t units = 0;
    for (size_t i = 0; i < length; i++) {
        uint32_t scalar = text[i];
        scripts[i] = (uint32_t)hb_unicode_script(unicode, scalar);
        cluster_starts[i] = 0;
        if (scalar >= 0x10000) {
            scratch->scalar_at[units] = (int32_t)i;
            scratch->utf16[units++] = (UChar)(0xD800 + ((scalar - 0x10000) >> 10));
            scratch->scalar_at[units] = (int32_t)i;
            scratch->utf16[units++] = (UChar)(0xDC00 + ((scalar - 0x10000) & 0x3FF));
        } else {
            scratch->scalar_at[units] = (int32_t)i;
            scratch->utf16[units++] = (UChar)scalar;
        }
    }
    UErrorCode status = U_ZERO_ERROR;
    // UAX #9: the paragraph's direction from its first strong character, left to right without one.
    if (!scratch->bidi) {
        scratch->bidi = ubidi_openSized(0, 0, &status);
        if (U_FAILURE(status)) return -1;
    }
    ubidi_setPara(scratch->bidi, scratch->utf16, units, UBIDI_DEFAULT_LTR, NULL, &status);
    if (U_FAILURE(status)) return -1;
    const UBiDiLevel *unit_levels = ubidi_getLevels(scratch->bidi, &status);
    if (U_FAILURE(status)) return -1;
    for (int32_t unit = 0; unit < units; unit++) levels[scratch->scalar_at[unit]] = unit_levels[unit];
    // UAX #29: extended grapheme clusters.
    if (!scratch->graphemes) {
        scratch->graphemes = ubrk_open(UBRK_CHARACTER, "", NULL, 0, &status);
        if (U_FAILURE(status)) return -1;
    }
    ubrk_setText(scratch->graphemes, scratch->utf16, units, &status);
    if (U_FAILURE(status)) return -1;
    for (int32_t unit = ubrk_first(scratch->graphemes); unit != UBRK_DONE && unit < units;
         unit = ubrk_next(scratch->graphemes)) {
        cluster_starts[scratch->scalar_at[unit]] = 1;
    }
    return 0;
}

size_t tfont_bidi_paragraphs(
    const uint32_t *text, size_t length, uint32_t *starts, uint8_t *directions, size_t capacity, uint8_t *first_strong) {
    size_t count = 0;
    size_t start = 0;
    *first_strong = 2;
    while (count == 0 || start < length) {
        // P2: the first strong character outside isolates (`whole`); the paragraph's direction is it, but in the
        // text's first paragraph only before a carriage return: ICU's first paragraph ends there, and Blink takes the
        // direction of the block's first paragraph from its level (the later ones from the text up to a line feed).
        uint8_t whole = 2;
        uint8_t direction = 2;
        int before_carriage_return = 1;
        size_t isolates = 0;
        size_t i = start;
        while (i < length) {
            UChar32 c = (UChar32)text[i++];
            // Blink's paragraphs for `unicode-bidi: plaintext`: a line feed (a forced break) ends one; a carriage
            // return, kept as a control character of the line, does not (measured: the text after one keeps the
            // direction of the text before it).
            if (c == 0x0A) break;
            if (c == 0x0D && count == 0) before_carriage_return = 0;
            if (whole != 2) continue;
            UCharDirection type = u_charDirection(c);
            if (type == U_LEFT_TO_RIGHT_ISOLATE || type == U_RIGHT_TO_LEFT_ISOLATE || type == U_FIRST_STRONG_ISOLATE) {
                isolates++;
            } else if (type == U_POP_DIRECTIONAL_ISOLATE) {
                if (isolates > 0) isolates--;
            } else if (isolates == 0) {
                if (type == U_LEFT_TO_RIGHT) whole = 0;
                else if (type == U_RIGHT_TO_LEFT || type == U_RIGHT_TO_LEFT_ARABIC) whole = 1;
                if (before_carriage_return) direction = whole;
            }
        }
        if (*first_strong == 2) *first_strong = whole;
        if (count < capacity) {
            starts[count] = (uint32_t)start;
            directions[count] = direction;
        }
        count++;
        start = i;
    }
    return count;
}

int tfont_paired_bracket(uint32_t scalar, uint32_t *pair) {
    // ASCII's three pairs (UCD's BidiBrackets.txt), without asking ICU.
    if (scalar < 0x80) {
        static const char brackets[] = "()[]{}";
        const char *at = scalar == 0 ? NULL : strchr(brackets, (int)scalar);
        if (!at) {
            *pair = scalar;
            return 0;
        }
        size_t index = (size_t)(at - brackets);
        *pair = (uint32_t)(unsigned char)brackets[index ^ 1];
        return index % 2 == 0 ? 1 : 2;
    }
    *pair = (uint32_t)u_getBidiPairedBracket((UChar32)scalar);
    switch (u_getIntPropertyValue((UChar32)scalar, UCHAR_BIDI_PAIRED_BRACKET_TYPE)) {
    case U_BPT_OPEN: return 1;
    case U_BPT_CLOSE: return 2;
    default: return 0;
    }
}

int tfont_script_extensions(uint32_t scalar, uint32_t *scripts, int capacity) {
    // No ASCII character has script extensions (UCD's ScriptExtensions.txt starts at U+00B7).
    if (scalar < 0x80) return 0;
    UErrorCode status = U_ZERO_ERROR;
    if (uscript_getScript((UChar32)scalar, &status) != USCRIPT_COMMON || U_FAILURE(status)) return 0;
    UScriptCode codes[32];
    int count;
    if (scalar == 0xB7) {
        // Unicode 15.1's extensions of U+00B7 MIDDLE DOT, which the ICU inside Chromium has and Debian's ICU 72 lacks.
        static const UScriptCode middle_dot[] = {
            USCRIPT_AVESTAN, USCRIPT_CARIAN, USCRIPT_COPTIC, USCRIPT_DUPLOYAN, USCRIPT_ELBASAN, USCRIPT_GEORGIAN,
            USCRIPT_GLAGOLITIC, USCRIPT_GUNJALA_GONDI, USCRIPT_GOTHIC, USCRIPT_GREEK, USCRIPT_HAN, USCRIPT_LATIN,
            USCRIPT_LYDIAN, USCRIPT_MAHAJANI, USCRIPT_OLD_PERMIC, USCRIPT_SHAVIAN,
        };
        count = (int)(sizeof middle_dot / sizeof middle_dot[0]);
        for (int i = 0; i < count; i++) codes[i] = middle_dot[i];
    } else {
        count = uscript_getScriptExtensions((UChar32)scalar, codes, 32, &status);
    }
    if (U_FAILURE(status) || count <= 1) return 0;
    if (count > capacity) count = capacity;
    // Blink's preferred script first: swapped in while the first is Latin or a later one has a smaller code.
    for (int i = 1; i < count; i++) {
        if (codes[0] == USCRIPT_LATIN || codes[i] < codes[0]) {
            UScriptCode first = codes[0];
            codes[0] = codes[i];
            codes[i] = first;
        }
    }
    for (int i = 0; i < count; i++) {
        const char *name = uscript_getShortName(codes[i]);
        scripts[i] = name ? (uint32_t)hb_script_from_string(name, -1) : 0;
    }
    return count;
}

int tfont_font_shape_clusters(
    const tfont_font *font, const uint32_t *text, size_t length, size_t start, size_t count, int rtl,
    uint32_t script, int64_t *advances, uint8_t *flags) {
    hb_buffer_t *buffer = shape(font, text, length, start, count, rtl, script, 0);
    if (!buffer) return -1;
    memset(advances, 0, count * sizeof *advances);
    memset(flags, 0, count);
    unsigned glyphs = 0;
    const hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &glyphs);
    const hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer, &glyphs);
    const tfont_face *face = font->face;
    for (unsigned g = 0; g < glyphs; g++) {
        size_t at = infos[g].cluster;
        if (at < start || at - start >= count) continue;
        at -= start;
        int64_t advance = positions[g].x_advance;
        // Rule: the strike's advance scaled from its ppem to the size.
        if (face->bitmap_advance && infos[g].codepoint < face->bitmap_glyphs && face->bitmap_advance[infos[g].codepoint]) {
            advance = ((int64_t)face->bitmap_advance[infos[g].codepoint] * font->scale + face->bitmap_ppem / 2) / face->bitmap_ppem;
        }
        advances[at] += advance;
        flags[at] |= 1;
        if (hb_glyph_info_get_glyph_flags(&infos[g]) & HB_GLYPH_FLAG_UNSAFE_TO_BREAK) flags[at] |= 2;
    }
    return 0;
}

// Reads a GSUB, GPOS or kern table's bytes with every read bounds-checked and counted: a read out of the table, or
// past the budget, fails the reader (and so the check that uses it).
typedef struct {
    const uint8_t *data;
    size_t length;
    long budget;
    int failed;
} table_reader;

// Rule: at most this many reads per face, so that a crafted table (offsets shared many times over) costs a bounded
// amount once per face; past it the face is shaped run by run.
enum { WORDS_CHECK_READS = 1 << 22 };

static unsigned read16(table_reader *r, size_t offset) {
    if (r->failed || offset >= r->length || r->length - offset < 2 || --r->budget < 0) {
        r->failed = 1;
        return 0;
    }
    return u16(r->data, offset);
}

static uint32_t read32(table_reader *r, size_t offset) {
    uint32_t high = read16(r, offset);
    return (high << 16) | read16(r, offset + 2);
}

// Whether a value record of `format` at `at` is all zero (placements, advances and device offsets).
static int value_zero(table_reader *r, size_t at, unsigned format) {
    unsigned fields = (unsigned)__builtin_popcount(format & 0xFF);
    for (unsigned i = 0; i < fields; i++) {
        if (read16(r, at + 2 * i) != 0) return 0;
    }
    return 1;
}

// Rule: a class-based rule with class 0 at a position matches every glyph its class definition leaves out, which
// HarfBuzz's glyph collection does not list: so a pair adjustment of format 2 with anything but zero for a second
// glyph of class 0, or a (chained) context of format 2 with class 0 anywhere in a rule's sequences, might match the
// space glyph unlisted. 1 when the subtable at `at` (of the table's own lookup type, extensions resolved) has
// none, else 0.
static int subtable_without_class_zero(table_reader *r, int gpos, unsigned type, size_t at) {
    unsigned format = read16(r, at);
    if (format != 2 || r->failed) return !r->failed;
    if (gpos && type == 2) {
        unsigned format1 = read16(r, at + 4), format2 = read16(r, at + 6);
        unsigned class1 = read16(r, at + 12), class2 = read16(r, at + 14);
        size_t size1 = 2 * (size_t)__builtin_popcount(format1 & 0xFF), size2 = 2 * (size_t)__builtin_popcount(format2 & 0xFF);
        size_t record = size1 + size2;
        for (unsigned k = 0; k < class1 && !r->failed; k++) {
            size_t first = at + 16 + (size_t)k * class2 * record;
            if (class2 == 0) break;
            if (!value_zero(r, first, format1) || !value_zero(r, first + size1, format2)) return 0;
        }
        return !r->failed;
    }
    int context = gpos ? type == 7 : type == 5;
    int chained = gpos ? type == 8 : type == 6;
    if (!context && !chained) return 1;
    size_t sets_at = at + (chained ? 10 : 6);
    unsigned sets = read16(r, sets_at);
    for (unsigned s = 0; s < sets && !r->failed; s++) {
        unsigned set_offset = read16(r, sets_at + 2 + 2 * (size_t)s);
        if (set_offset == 0) continue;
        size_t set = at + set_offset;
        unsigned rules = read16(r, set);
        for (unsigned k = 0; k < rules && !r->failed; k++) {
            size_t rule = set + read16(r, set + 2 + 2 * (size_t)k);
            if (context) {
                unsigned glyphs = read16(r, rule);
                for (unsigned g = 1; g < glyphs; g++) {
                    if (read16(r, rule + 4 + 2 * (size_t)(g - 1)) == 0) return 0;
                }
            } else {
                size_t at_sequence = rule;
                for (int part = 0; part < 3 && !r->failed; part++) {
                    unsigned count = read16(r, at_sequence);
                    // The input sequence leaves out its first glyph (the coverage's).
                    unsigned listed = part == 1 && count > 0 ? count - 1 : count;
                    for (unsigned g = 0; g < listed; g++) {
                        if (read16(r, at_sequence + 2 + 2 * (size_t)g) == 0) return 0;
                    }
                    at_sequence += 2 + 2 * (size_t)listed;
                }
            }
        }
    }
    return !r->failed;
}

// Rule (Blink's HarfBuzzFace::HasSpaceInLigaturesOrKerning, on the lookups a shaping of `script` may apply): 1 when
// no lookup of GSUB or GPOS (`gpos`) that a feature of the script's tables may apply (HarfBuzz's collection, for
// every script tag HarfBuzz may choose for it, every language and every feature, the lookups they call included;
// every lookup when the table has feature variations) lists the space glyph among the glyphs it reads or writes
// (HarfBuzz's collection), none may skip it (the flag IgnoreBaseGlyphs) and no class-based rule may match it
// unlisted (above).
static int layout_without_space(hb_face_t *face, int gpos, hb_script_t script, hb_codepoint_t space, hb_set_t *glyphs,
    hb_set_t *lookups) {
    hb_tag_t tag = gpos ? HB_OT_TAG_GPOS : HB_OT_TAG_GSUB;
    hb_blob_t *blob = hb_face_reference_table(face, tag);
    unsigned length = 0;
    const uint8_t *data = (const uint8_t *)hb_blob_get_data(blob, &length);
    int result = 1;
    if (length == 0) goto done;
    table_reader r = {data, length, WORDS_CHECK_READS, 0};
    size_t list = read16(&r, 8);
    unsigned count = list == 0 ? 0 : read16(&r, list);
    unsigned minor = read16(&r, 2);
    uint32_t variations = minor >= 1 && length >= 14 ? read32(&r, 10) : 0;
    if (r.failed || count != hb_ot_layout_table_get_lookup_count(face, tag)) {
        result = 0;
        goto done;
    }
    hb_set_clear(lookups);
    if (variations != 0) {
        hb_set_add_range(lookups, 0, count == 0 ? 0 : count - 1);
        if (count == 0) hb_set_clear(lookups);
    } else {
        // The script's tags, then the ones HarfBuzz falls back on.
        hb_tag_t tags[HB_OT_MAX_TAGS_PER_SCRIPT + 4];
        unsigned tag_count = HB_OT_MAX_TAGS_PER_SCRIPT, language_count = 0;
        hb_ot_tags_from_script_and_language(script, NULL, &tag_count, tags, &language_count, NULL);
        tags[tag_count++] = HB_OT_TAG_DEFAULT_SCRIPT;
        tags[tag_count++] = HB_TAG('d', 'f', 'l', 't');
        tags[tag_count++] = HB_TAG('l', 'a', 't', 'n');
        tags[tag_count] = HB_TAG_NONE;
        hb_ot_layout_collect_lookups(face, tag, tags, NULL, NULL, lookups);
    }
    if (!hb_set_allocation_successful(lookups)) {
        result = 0;
        goto done;
    }
    for (hb_codepoint_t i = HB_SET_VALUE_INVALID; result && hb_set_next(lookups, &i);) {
        if (i >= count) {
            result = 0;
            break;
        }
        hb_set_clear(glyphs);
        hb_ot_layout_lookup_collect_glyphs(face, tag, i, glyphs, glyphs, glyphs, glyphs);
        if (hb_set_has(glyphs, space) || !hb_set_allocation_successful(glyphs)) {
            result = 0;
            break;
        }
        size_t lookup = list + read16(&r, list + 2 + 2 * (size_t)i);
        unsigned type = read16(&r, lookup), flag = read16(&r, lookup + 2), subtables = read16(&r, lookup + 4);
        if (flag & 0x0002) result = 0;
        for (unsigned k = 0; k < subtables && result && !r.failed; k++) {
            size_t subtable = lookup + read16(&r, lookup + 6 + 2 * (size_t)k);
            unsigned resolved = type;
            if (type == (gpos ? 9u : 7u)) {
                resolved = read16(&r, subtable + 2);
                subtable += read32(&r, subtable + 4);
            }
            result = subtable_without_class_zero(&r, gpos, resolved, subtable);
        }
        if (r.failed) result = 0;
    }
done:
    hb_blob_destroy(blob);
    return result;
}

// Rule: the kern table HarfBuzz falls back on (where GPOS has no kerning for the script) in OpenType's version 0 with
// pair lists (format 0) only, none with the space glyph; 1 when there is none.
static int kern_without_space(hb_face_t *face, hb_codepoint_t space) {
    hb_blob_t *blob = hb_face_reference_table(face, HB_TAG('k', 'e', 'r', 'n'));
    unsigned length = 0;
    const uint8_t *data = (const uint8_t *)hb_blob_get_data(blob, &length);
    int result = 1;
    if (length > 0) {
        table_reader r = {data, length, WORDS_CHECK_READS, 0};
        unsigned version = read16(&r, 0), subtables = read16(&r, 2);
        size_t at = 4;
        if (version != 0) result = 0;
        for (unsigned k = 0; k < subtables && result && !r.failed; k++) {
            unsigned size = read16(&r, at + 2), coverage = read16(&r, at + 4);
            if ((coverage >> 8) != 0 || size < 14) {
                result = 0;
                break;
            }
            unsigned pairs = read16(&r, at + 6);
            for (unsigned p = 0; p < pairs && result; p++) {
                size_t pair = at + 14 + 6 * (size_t)p;
                if (read16(&r, pair) == space || read16(&r, pair + 2) == space) result = 0;
            }
            at += size;
        }
        if (r.failed) result = 0;
    }
    hb_blob_destroy(blob);
    return result;
}

// Rule: the scripts HarfBuzz shapes with its default shaper, which reads nothing of the context around the shaped
// text but whether a mark begins it (joining scripts, reordering and syllables are left out).
static const hb_script_t word_scripts[WORD_SCRIPT_COUNT] = {
    HB_SCRIPT_COMMON, HB_SCRIPT_LATIN, HB_SCRIPT_GREEK, HB_SCRIPT_CYRILLIC, HB_SCRIPT_ARMENIAN, HB_SCRIPT_GEORGIAN,
    HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA};

static int words_alone_find(hb_face_t *face, hb_script_t script) {
    // Apple's layout tables (morx, kerx, trak), which HarfBuzz prefers to GSUB and GPOS, are not looked into.
    if (hb_aat_layout_has_substitution(face) || hb_aat_layout_has_positioning(face) || hb_aat_layout_has_tracking(face)) {
        return 0;
    }
    hb_font_t *font = hb_font_create(face);
    hb_codepoint_t space = 0;
    int has_space = hb_font_get_nominal_glyph(font, 0x20, &space);
    hb_font_destroy(font);
    if (!has_space) return 0;
    hb_set_t *glyphs = hb_set_create(), *lookups = hb_set_create();
    int result = hb_set_allocation_successful(glyphs) && hb_set_allocation_successful(lookups) &&
                 layout_without_space(face, 0, script, space, glyphs, lookups) &&
                 layout_without_space(face, 1, script, space, glyphs, lookups) && kern_without_space(face, space);
    hb_set_destroy(glyphs);
    hb_set_destroy(lookups);
    return result;
}

int tfont_font_shapes_words_alone(const tfont_font *font, uint32_t script) {
    unsigned index = 0;
    while (index < WORD_SCRIPT_COUNT && word_scripts[index] != (hb_script_t)script) index++;
    if (index == WORD_SCRIPT_COUNT) return 0;
    // Found once per face and script (every thread finds the same answer, so a race only finds it twice).
    _Atomic uint8_t *known = &((tfont_face *)font->face)->words_alone[index];
    uint8_t answer = atomic_load_explicit(known, memory_order_relaxed);
    if (answer == 0) {
        answer = words_alone_find(font->face->face, (hb_script_t)script) ? 1 : 2;
        atomic_store_explicit(known, answer, memory_order_relaxed);
    }
    return answer == 1;
}

static void char_class(UChar32 c, uint8_t *line_break, uint8_t *bits);

// ASCII's classes, read off ICU once (most text is mostly ASCII).
enum { ASCII_COUNT = 0x80 };
static uint8_t ascii_line_break[ASCII_COUNT];
static uint8_t ascii_bits[ASCII_COUNT];
static pthread_once_t ascii_once = PTHREAD_ONCE_INIT;

static void ascii_classes_fill(void) {
    for (UChar32 c = 0; c < ASCII_COUNT; c++) char_class(c, &ascii_line_break[c], &ascii_bits[c]);
}

void tfont_char_classes(const uint32_t *text, size_t length, uint8_t *line_break, uint8_t *bits) {
    pthread_once(&ascii_once, ascii_classes_fill);
    for (size_t i = 0; i < length; i++) {
        if (text[i] < ASCII_COUNT) {
            line_break[i] = ascii_line_break[text[i]];
            bits[i] = ascii_bits[text[i]];
        } else {
            char_class((UChar32)text[i], &line_break[i], &bits[i]);
        }
    }
}

static void char_class(UChar32 c, uint8_t *line_break, uint8_t *bits) {
    *line_break = (uint8_t)u_getIntPropertyValue(c, UCHAR_LINE_BREAK);
    uint32_t mask = U_MASK(u_charType(c));
    uint8_t b = 0;
    if (mask & U_GC_L_MASK) b |= TFONT_LETTER;
    if (mask & U_GC_M_MASK) b |= TFONT_MARK;
    if (mask & U_GC_N_MASK) b |= TFONT_NUMBER;
    if (u_hasBinaryProperty(c, UCHAR_EMOJI_PRESENTATION)) b |= TFONT_EMOJI_PRESENTATION;
    int32_t width = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    if (width == U_EA_FULLWIDTH || width == U_EA_WIDE || width == U_EA_HALFWIDTH) b |= TFONT_EAST_ASIAN;
    if (mask & U_GC_PI_MASK) b |= TFONT_INITIAL_PUNCTUATION;
    if (mask & U_GC_PF_MASK) b |= TFONT_FINAL_PUNCTUATION;
    *bits = b;
}

enum { PAIR_FIRST = 0x21, PAIR_COUNT = 0xFF - 0x21 + 1 };
static uint8_t pair_table[PAIR_COUNT * PAIR_COUNT];
static int pair_table_ready;
static pthread_once_t pair_once = PTHREAD_ONCE_INIT;

static void pair_table_fill(void) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *lines = ubrk_open(UBRK_LINE, "en", NULL, 0, &status);
    if (U_FAILURE(status)) return;
    UChar pair[2];
    for (int a = 0; a < PAIR_COUNT; a++) {
        for (int b = 0; b < PAIR_COUNT; b++) {
            pair[0] = (UChar)(PAIR_FIRST + a);
            pair[1] = (UChar)(PAIR_FIRST + b);
            status = U_ZERO_ERROR;
            ubrk_setText(lines, pair, 2, &status);
            if (U_FAILURE(status)) {
                ubrk_close(lines);
                return;
            }
            pair_table[a * PAIR_COUNT + b] = ubrk_isBoundary(lines, 1) ? 1 : 0;
        }
    }
    ubrk_close(lines);
    pair_table_ready = 1;
}

const uint8_t *tfont_line_pair_table(void) {
    pthread_once(&pair_once, pair_table_fill);
    return pair_table_ready ? pair_table : NULL;
}

int tfont_line_boundaries(const uint32_t *text, size_t start, size_t end, uint8_t *boundary) {
    if (end <= start) return 0;
    size_t length = end - start;
    memset(boundary, 0, length);
    tfont_scratch *scratch = scratch_get();
    if (!scratch || length > INT32_MAX / 2 - 1 || scratch_reserve(scratch, length) != 0) return -1;
    int32_t units = 0;
    for (size_t i = 0; i < length; i++) {
        uint32_t scalar = text[start + i];
        scratch->scalar_at[units] = (int32_t)i;
        if (scalar >= 0x10000) {
            scratch->utf16[units++] = (UChar)(0xD800 + ((scalar - 0x10000) >> 10));
            scratch->scalar_at[units] = (int32_t)i;
            scratch->utf16[units++] = (UChar)(0xDC00 + ((scalar - 0x10000) & 0x3FF));
        } else {
            scratch->utf16[units++] = (UChar)scalar;
        }
    }
    UErrorCode status = U_ZERO_ERROR;
    if (!scratch->lines) {
        scratch->lines = ubrk_open(UBRK_LINE, "en@lb=normal", NULL, 0, &status);
        if (U_FAILURE(status)) {
            scratch->lines = NULL;
            return -1;
        }
    }
    ubrk_setText(scratch->lines, scratch->utf16, units, &status);
    if (U_FAILURE(status)) return -1;
    for (int32_t unit = ubrk_next(scratch->lines); unit != UBRK_DONE && unit < units; unit = ubrk_next(scratch->lines)) {
        boundary[scratch->scalar_at[unit]] = 1;
    }
    return 0;
}
