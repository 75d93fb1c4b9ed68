// libvips's operations take variadic option lists, which Swift cannot call. These inline
// wrappers fix the options Fieldhouse uses and give Swift plain functions.
#include <vips/vips.h>

/// Starts libvips once per process, set up for files from strangers: loaders libvips marks as
/// untrusted are refused, nothing is cached between operations, and one operation uses one thread
/// (the server already runs one photo at a time beside its requests).
static inline int fh_vips_start(void) {
    if (VIPS_INIT("fieldhouse")) return -1;
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    return 0;
}

typedef struct {
    int width;
    int height;
    int orientation;
    int has_alpha;
} fh_vips_header;

/// Reads only the header: sizes before any pixel is decoded, so a huge picture is refused cheaply.
static inline int fh_vips_read_header(const void *bytes, size_t length, fh_vips_header *header) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (!image) return -1;
    header->width = vips_image_get_width(image);
    header->height = vips_image_get_height(image);
    header->orientation = vips_image_get_orientation(image);
    header->has_alpha = vips_image_hasalpha(image);
    g_object_unref(image);
    return 0;
}

/// Copies the picture's EXIF block (for HEIC, whose container `ImageSanitizer` does not read) into
/// `*out`, freed by the caller with `fh_vips_free`. Returns -1 when the picture has none.
static inline int fh_vips_copy_exif(const void *bytes, size_t length, void **out, size_t *out_length) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (!image) return -1;
    const void *data = NULL;
    size_t size = 0;
    int result = -1;
    if (vips_image_get_typeof(image, VIPS_META_EXIF_NAME) &&
        !vips_image_get_blob(image, VIPS_META_EXIF_NAME, &data, &size) && size > 0) {
        *out = g_memdup2(data, size);
        *out_length = size;
        result = 0;
    }
    g_object_unref(image);
    return result;
}

/// Decodes, turns the pixels upright by the EXIF orientation, converts to sRGB, shrinks to fit
/// `width`×`height` (never enlarges; `crop` fills the box from the centre instead) and encodes
/// with no metadata at all. `format`: 0 JPEG, 1 PNG. (Not WebP: libvips 8.14's WebP
/// saver writes EXIF and XMP even when told to strip.) The caller frees `*out` with
/// `fh_vips_free`.
static inline int fh_vips_render(const void *bytes, size_t length, int width, int height, int crop,
                                 int format, int quality,
                                 void **out, size_t *out_length, int *out_width, int *out_height) {
    VipsImage *image = NULL;
    if (vips_thumbnail_buffer((void *)bytes, length, &image, width,
                              "height", height,
                              "size", VIPS_SIZE_DOWN,
                              "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
                              "option_string", "fail_on=error",
                              NULL)) {
        return -1;
    }
    // Every metadata item goes before saving, as well as the savers' `strip` option: belt and
    // braces, since a saver that keeps one block would publish a home's coordinates.
    VipsImage *bare = NULL;
    if (vips_copy(image, &bare, NULL)) {
        g_object_unref(image);
        return -1;
    }
    g_object_unref(image);
    image = bare;
    gchar **fields = vips_image_get_fields(image);
    for (int i = 0; fields[i]; i++) vips_image_remove(image, fields[i]);
    g_strfreev(fields);
    int result;
    switch (format) {
    case 1:
        result = vips_pngsave_buffer(image, out, out_length, "strip", TRUE, NULL);
        break;
    default:
        result = vips_jpegsave_buffer(image, out, out_length, "Q", quality, "strip", TRUE,
                                      "optimize_coding", TRUE, "interlace", TRUE, NULL);
    }
    *out_width = vips_image_get_width(image);
    *out_height = vips_image_get_height(image);
    g_object_unref(image);
    return result;
}

/// libvips's last error text, then cleared. libvips keeps one buffer for the process.
static inline char *fh_vips_take_error(void) {
    char *text = g_strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}

static inline void fh_vips_free(void *pointer) { g_free(pointer); }
