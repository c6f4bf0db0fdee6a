#define _GNU_SOURCE  // dladdr
#include "teardown_image.h"

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <string.h>
#include <vips/vips.h>

// libvips is opened on first use, not linked: a command that processes no image (`--version`,
// `check`, a sync of comments, an idle `serve`) then does not map it and the hundred libraries
// it brings, which were most of the start-up time and memory (Benchmarks/README.md). Each
// function is called through a pointer of its own declared type, so the compiler checks every
// call against libvips' headers as before.
#define TD_VIPS_FUNCTIONS(X) \
    X(g_free) X(g_log) X(g_log_set_handler) X(g_malloc0) \
    X(g_malloc0_n) X(g_object_ref) X(g_object_unref) X(g_strfreev) \
    X(vips_addalpha) X(vips_area_unref) X(vips_array_double_newv) X(vips_array_int_new) \
    X(vips_autorot) X(vips_black) X(vips_block_untrusted_set) X(vips_cache_set_max) \
    X(vips_cast_uchar) X(vips_colourspace) X(vips_composite) X(vips_concurrency_set) \
    X(vips_copy) X(vips_error) X(vips_error_buffer) X(vips_error_clear) \
    X(vips_extract_band) X(vips_flatten) X(vips_getpoint) X(vips_gifload) \
    X(vips_icc_transform) X(vips_image_copy_memory) X(vips_image_get_fields) X(vips_image_get_orientation) \
    X(vips_image_get_string) X(vips_image_get_typeof) X(vips_image_hasalpha) X(vips_image_remove) \
    X(vips_image_write_to_memory) X(vips_init) X(vips_jpegload) X(vips_jpegsave) \
    X(vips_operation_block_set) X(vips_pngload) X(vips_pngsave) X(vips_premultiply) \
    X(vips_resize) X(vips_svgload) X(vips_unpremultiply) X(vips_version) \
    X(vips_version_string) X(vips_webpload) X(vips_webpsave)

static struct {
#define TD_POINTER(name) __typeof__(name) *name;
    TD_VIPS_FUNCTIONS(TD_POINTER)
#undef TD_POINTER
} td_vips;

static pthread_once_t td_vips_once = PTHREAD_ONCE_INIT;
static void *td_vips_handle;
static char td_vips_problem[512];

static void td_vips_open(void) {
    // The soname of every libvips 8 release.
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(td_vips_problem, sizeof td_vips_problem, "libvips is not installed (%s): install libvips42",
                 reason ? reason : "libvips.so.42 not found");
        return;
    }
    td_vips_handle = library;
#define TD_RESOLVE(name) \
    if (!(td_vips.name = (__typeof__(td_vips.name))dlsym(library, #name))) { \
        snprintf(td_vips_problem, sizeof td_vips_problem, "libvips lacks %s: it is older than Teardown needs", #name); \
        return; \
    }
    TD_VIPS_FUNCTIONS(TD_RESOLVE)
#undef TD_RESOLVE
}

/// Opens libvips once; NULL when it is ready, else why it is not.
static const char *td_vips_load(void) {
    pthread_once(&td_vips_once, td_vips_open);
    return td_vips_problem[0] ? td_vips_problem : NULL;
}

// From here on, each libvips and GLib function named is the pointer resolved above (GLib
// declares g_object_ref as a macro too).
#undef g_object_ref
#define g_free td_vips.g_free
#define g_log td_vips.g_log
#define g_log_set_handler td_vips.g_log_set_handler
#define g_malloc0 td_vips.g_malloc0
#define g_malloc0_n td_vips.g_malloc0_n
#define g_object_ref td_vips.g_object_ref
#define g_object_unref td_vips.g_object_unref
#define g_strfreev td_vips.g_strfreev
#define vips_addalpha td_vips.vips_addalpha
#define vips_area_unref td_vips.vips_area_unref
#define vips_array_double_newv td_vips.vips_array_double_newv
#define vips_array_int_new td_vips.vips_array_int_new
#define vips_autorot td_vips.vips_autorot
#define vips_black td_vips.vips_black
#define vips_block_untrusted_set td_vips.vips_block_untrusted_set
#define vips_cache_set_max td_vips.vips_cache_set_max
#define vips_cast_uchar td_vips.vips_cast_uchar
#define vips_colourspace td_vips.vips_colourspace
#define vips_composite td_vips.vips_composite
#define vips_concurrency_set td_vips.vips_concurrency_set
#define vips_copy td_vips.vips_copy
#define vips_error td_vips.vips_error
#define vips_error_buffer td_vips.vips_error_buffer
#define vips_error_clear td_vips.vips_error_clear
#define vips_extract_band td_vips.vips_extract_band
#define vips_flatten td_vips.vips_flatten
#define vips_getpoint td_vips.vips_getpoint
#define vips_gifload td_vips.vips_gifload
#define vips_icc_transform td_vips.vips_icc_transform
#define vips_image_copy_memory td_vips.vips_image_copy_memory
#define vips_image_get_fields td_vips.vips_image_get_fields
#define vips_image_get_orientation td_vips.vips_image_get_orientation
#define vips_image_get_string td_vips.vips_image_get_string
#define vips_image_get_typeof td_vips.vips_image_get_typeof
#define vips_image_hasalpha td_vips.vips_image_hasalpha
#define vips_image_remove td_vips.vips_image_remove
#define vips_image_write_to_memory td_vips.vips_image_write_to_memory
#define vips_init td_vips.vips_init
#define vips_jpegload td_vips.vips_jpegload
#define vips_jpegsave td_vips.vips_jpegsave
#define vips_operation_block_set td_vips.vips_operation_block_set
#define vips_pngload td_vips.vips_pngload
#define vips_pngsave td_vips.vips_pngsave
#define vips_premultiply td_vips.vips_premultiply
#define vips_resize td_vips.vips_resize
#define vips_svgload td_vips.vips_svgload
#define vips_unpremultiply td_vips.vips_unpremultiply
#define vips_version td_vips.vips_version
#define vips_version_string td_vips.vips_version_string
#define vips_webpload td_vips.vips_webpload
#define vips_webpsave td_vips.vips_webpsave

struct td_image {
    VipsImage *vips;
};

/// Moves libvips' error buffer into `error`. The buffer is shared by all threads, so it is
/// cleared after each failure to keep messages from piling up across images.
static int fail(char *error, size_t size, const char *context) {
    const char *buffer = vips_error_buffer();
    const char *detail = (buffer && *buffer) ? buffer : "unknown libvips error";
    snprintf(error, size, "%s%s%s", context ? context : "", context ? ": " : "", detail);
    size_t length = strlen(error);
    while (length > 0 && (error[length - 1] == '\n' || error[length - 1] == ' ')) error[--length] = 0;
    vips_error_clear();
    return -1;
}

static int fail_with(char *error, size_t size, const char *message) {
    snprintf(error, size, "%s", message);
    return -1;
}

/// libvips prints warnings on standard error; a library must not, and every failure that
/// matters reaches the caller as an error anyway.
static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

int td_start(const char *argv0, char *error, size_t error_size) {
    const char *problem = td_vips_load();
    if (problem) return fail_with(error, error_size, problem);
    if (VIPS_INIT(argv0 ? argv0 : "teardown")) return fail(error, error_size, "cannot start libvips");
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, quiet, NULL);
    // Community files reach the loaders: only loaders fit for untrusted input may run. SVG
    // stays allowed for designers' layers; photos never reach it, since the caller picks the
    // loader from a photo's first bytes and accepts only JPEG, PNG and WebP.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoadSvg", FALSE);
    // Teardown runs one image per core itself; libvips' own threads and its operation
    // cache would only add memory.
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    // Decoded photos are tens of megabytes each. glibc raises its mmap threshold after the
    // first such block is freed, and from then on serves them from per-thread heaps that
    // never shrink: a fixed threshold keeps every large buffer mapped and returned on free.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    return 0;
}

const char *td_vips_version(void) { return td_vips_load() ? NULL : vips_version_string(); }

const char *td_vips_library(void) {
    Dl_info info;
    // `vips_init` names the pointer resolved from the library (see the defines above).
    if (!td_vips_handle || td_vips_problem[0] || !dladdr((void *)vips_init, &info)) return NULL;
    return info.dli_fname;
}

/// Loads fail on the first warning: a damaged JPEG otherwise decodes "successfully", its
/// missing part grey, and only a warning says so.
static VipsImage *load(const char *path, int format, double svg_scale) {
    VipsImage *out = NULL;
    int result = -1;
    switch (format) {
    case TD_JPEG: result = vips_jpegload(path, &out, "fail_on", VIPS_FAIL_ON_WARNING, NULL); break;
    case TD_PNG: result = vips_pngload(path, &out, "fail_on", VIPS_FAIL_ON_WARNING, NULL); break;
    case TD_WEBP: result = vips_webpload(path, &out, "fail_on", VIPS_FAIL_ON_WARNING, NULL); break;
    case TD_GIF: result = vips_gifload(path, &out, "fail_on", VIPS_FAIL_ON_WARNING, NULL); break;
    case TD_SVG: result = vips_svgload(path, &out, "scale", svg_scale, "fail_on", VIPS_FAIL_ON_WARNING, NULL); break;
    default: vips_error("teardown", "unsupported image format"); break;
    }
    return result == 0 ? out : NULL;
}

static void copy_field(VipsImage *image, const char *name, char *target, size_t size) {
    const char *value = NULL;
    target[0] = 0;
    if (vips_image_get_typeof(image, name) && vips_image_get_string(image, name, &value) == 0 && value)
        snprintf(target, size, "%s", value);
}

static void read_metadata(VipsImage *image, td_metadata *metadata) {
    metadata->width = image->Xsize;
    metadata->height = image->Ysize;
    metadata->orientation = vips_image_get_orientation(image);
    copy_field(image, "exif-ifd0-Make", metadata->make, sizeof metadata->make);
    copy_field(image, "exif-ifd0-Model", metadata->model, sizeof metadata->model);
    copy_field(image, "exif-ifd2-DateTimeOriginal", metadata->taken, sizeof metadata->taken);
    copy_field(image, "exif-ifd3-GPSLatitude", metadata->latitude, sizeof metadata->latitude);
    copy_field(image, "exif-ifd3-GPSLatitudeRef", metadata->latitude_ref, sizeof metadata->latitude_ref);
    copy_field(image, "exif-ifd3-GPSLongitude", metadata->longitude, sizeof metadata->longitude);
    copy_field(image, "exif-ifd3-GPSLongitudeRef", metadata->longitude_ref, sizeof metadata->longitude_ref);
}

int td_probe(const char *path, int format, td_metadata *metadata, char *error, size_t error_size) {
    VipsImage *image = load(path, format, 1.0);
    if (!image) return fail(error, error_size, NULL);
    read_metadata(image, metadata);
    g_object_unref(image);
    return 0;
}

/// Replaces `*image` with `next`, releasing the old one; returns whether `next` exists.
static int step(VipsImage **image, VipsImage *next) {
    g_object_unref(*image);
    *image = next;
    return next != NULL;
}

/// Converts to 8-bit sRGB (keeping alpha), through the embedded colour profile when there is one.
static int to_srgb(VipsImage **image) {
    VipsImage *out = NULL;
    if (vips_image_get_typeof(*image, VIPS_META_ICC_NAME)) {
        if (vips_icc_transform(*image, &out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_PERCEPTUAL, NULL) == 0) {
            step(image, out);
            out = NULL;
        } else {
            // A broken profile is no reason to drop a photo: fall back to plain conversion.
            vips_error_clear();
        }
    }
    if ((*image)->Type != VIPS_INTERPRETATION_sRGB || (*image)->BandFmt != VIPS_FORMAT_UCHAR) {
        if (vips_colourspace(*image, &out, VIPS_INTERPRETATION_sRGB, NULL)) return -1;
        step(image, out);
        if ((*image)->BandFmt != VIPS_FORMAT_UCHAR) {
            if (vips_cast_uchar(*image, &out, NULL)) return -1;
            step(image, out);
        }
    }
    return 0;
}

int td_open(const char *path, int format, int64_t max_pixels, int width, int height, td_image **result,
            td_metadata *metadata, char *error, size_t error_size) {
    *result = NULL;
    double scale = 1.0;
    if (format == TD_SVG && width > 0) {
        VipsImage *header = load(path, format, 1.0);
        if (!header) return fail(error, error_size, NULL);
        if (header->Xsize > 0) scale = (double)width / header->Xsize;
        g_object_unref(header);
    }
    VipsImage *image = load(path, format, scale);
    if (!image) return fail(error, error_size, NULL);
    if (metadata) read_metadata(image, metadata);
    if (max_pixels > 0 && (int64_t)image->Xsize * image->Ysize > max_pixels) {
        char message[160];
        snprintf(message, sizeof message, "%d x %d pixels is more than the limit of %lld pixels", image->Xsize,
                 image->Ysize, (long long)max_pixels);
        g_object_unref(image);
        return fail_with(error, error_size, message);
    }
    VipsImage *out = NULL;
    if (vips_autorot(image, &out, NULL) || !step(&image, out)) goto failed;
    if (to_srgb(&image)) goto failed;
    // Decoding everything now surfaces damage here, once, instead of in each save.
    if (!step(&image, vips_image_copy_memory(image))) return fail(error, error_size, NULL);
    *result = g_new0(td_image, 1);
    (*result)->vips = image;
    return 0;
failed:
    g_object_unref(image);
    return fail(error, error_size, NULL);
}

void td_close(td_image *image) {
    if (!image) return;
    g_object_unref(image->vips);
    g_free(image);
}

int td_width(const td_image *image) { return image->vips->Xsize; }
int td_height(const td_image *image) { return image->vips->Ysize; }
int td_has_alpha(const td_image *image) { return vips_image_hasalpha(image->vips); }

int td_scaled(const td_image *image, int width, int height, td_image **result, char *error, size_t error_size) {
    *result = NULL;
    VipsImage *in = image->vips;
    g_object_ref(in);
    VipsImage *out = NULL;
    int alpha = vips_image_hasalpha(in);
    // Resampling straight alpha darkens the edges of transparent areas; premultiplied does not.
    if (alpha && (vips_premultiply(in, &out, NULL) || !step(&in, out))) goto failed;
    if (vips_resize(in, &out, (double)width / in->Xsize, "vscale", (double)height / in->Ysize, NULL) || !step(&in, out))
        goto failed;
    if (alpha && (vips_unpremultiply(in, &out, NULL) || !step(&in, out))) goto failed;
    if (in->BandFmt != VIPS_FORMAT_UCHAR && (vips_cast_uchar(in, &out, NULL) || !step(&in, out))) goto failed;
    if (!step(&in, vips_image_copy_memory(in))) return fail(error, error_size, "resize");
    *result = g_new0(td_image, 1);
    (*result)->vips = in;
    return 0;
failed:
    g_object_unref(in);
    return fail(error, error_size, "resize");
}

/// Header fields every image has; everything else (EXIF, XMP, IPTC, ICC, comments) is metadata.
static int is_basic_field(const char *name) {
    static const char *const basic[] = {"width", "height", "bands", "format", "coding", "interpretation",
                                        "xoffset", "yoffset", "xres", "yres", "filename", "mode", NULL};
    for (int i = 0; basic[i]; i++)
        if (strcmp(name, basic[i]) == 0) return 1;
    return 0;
}

int td_save(const td_image *image, const char *path, int format, int quality, int lossless, char *error,
            size_t error_size) {
    VipsImage *out = NULL;
    if (vips_copy(image->vips, &out, NULL)) return fail(error, error_size, "save");
    // libvips 8.14's WebP saver ignores `strip`: removing the fields themselves is what
    // keeps GPS positions, serial numbers and dates out of every format.
    gchar **fields = vips_image_get_fields(out);
    for (int i = 0; fields[i]; i++)
        if (!is_basic_field(fields[i])) vips_image_remove(out, fields[i]);
    g_strfreev(fields);
    int result = -1;
    switch (format) {
    case TD_JPEG:
        if (vips_image_hasalpha(out)) {
            VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
            VipsImage *flat = NULL;
            int flattened = vips_flatten(out, &flat, "background", white, NULL);
            vips_area_unref(VIPS_AREA(white));
            if (flattened) break;
            step(&out, flat);
        }
        result = vips_jpegsave(out, path, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
        break;
    case TD_PNG: result = vips_pngsave(out, path, "compression", 9, "strip", TRUE, NULL); break;
    case TD_WEBP: result = vips_webpsave(out, path, "Q", quality, "lossless", lossless, "strip", TRUE, NULL); break;
    default: vips_error("teardown", "cannot save in this format"); break;
    }
    g_object_unref(out);
    return result == 0 ? 0 : fail(error, error_size, "save");
}

int td_alpha(const td_image *image, uint8_t **alpha, char *error, size_t error_size) {
    *alpha = NULL;
    VipsImage *in = image->vips;
    if (!vips_image_hasalpha(in)) return 0;
    VipsImage *band = NULL;
    if (vips_extract_band(in, &band, in->Bands - 1, NULL)) return fail(error, error_size, "alpha");
    size_t size = 0;
    *alpha = vips_image_write_to_memory(band, &size);
    g_object_unref(band);
    return *alpha ? 0 : fail(error, error_size, "alpha");
}

void td_free(void *pointer) { g_free(pointer); }

int td_pixel(const td_image *image, int x, int y, double values[4]) {
    double *vector = NULL;
    int count = 0;
    if (vips_getpoint(image->vips, &vector, &count, x, y, NULL)) {
        vips_error_clear();
        return 0;
    }
    for (int i = 0; i < count && i < 4; i++) values[i] = vector[i];
    g_free(vector);
    return count < 4 ? count : 4;
}

int td_compose(int width, int height, int count, td_image *const *layers, const int *x, const int *y,
               td_image **result, char *error, size_t error_size) {
    *result = NULL;
    VipsImage *black = NULL, *canvas = NULL;
    if (vips_black(&black, width, height, "bands", 4, NULL)) return fail(error, error_size, "compose");
    int made = vips_copy(black, &canvas, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(black);
    if (made) return fail(error, error_size, "compose");

    VipsImage **inputs = g_new0(VipsImage *, count + 1);
    int *modes = g_new0(int, count);
    int *xs = g_new0(int, count), *ys = g_new0(int, count);
    int status = -1;
    inputs[0] = canvas;
    for (int i = 0; i < count; i++) {
        VipsImage *layer = layers[i]->vips;
        if (vips_image_hasalpha(layer)) {
            g_object_ref(layer);
            inputs[i + 1] = layer;
        } else if (vips_addalpha(layer, &inputs[i + 1], NULL)) {
            goto done;
        }
        modes[i] = VIPS_BLEND_MODE_OVER;
        xs[i] = x[i];
        ys[i] = y[i];
    }
    VipsArrayInt *xarray = vips_array_int_new(xs, count), *yarray = vips_array_int_new(ys, count);
    VipsImage *out = NULL;
    int composed = vips_composite(inputs, &out, count + 1, modes, "x", xarray, "y", yarray, NULL);
    vips_area_unref(VIPS_AREA(xarray));
    vips_area_unref(VIPS_AREA(yarray));
    if (composed) goto done;
    if (out->BandFmt != VIPS_FORMAT_UCHAR) {
        VipsImage *cast = NULL;
        if (vips_cast_uchar(out, &cast, NULL)) {
            g_object_unref(out);
            goto done;
        }
        step(&out, cast);
    }
    if (!step(&out, vips_image_copy_memory(out))) goto done;
    *result = g_new0(td_image, 1);
    (*result)->vips = out;
    status = 0;
done:
    for (int i = 0; i <= count; i++)
        if (inputs[i]) g_object_unref(inputs[i]);
    g_free(inputs);
    g_free(modes);
    g_free(xs);
    g_free(ys);
    return status == 0 ? 0 : fail(error, error_size, "compose");
}
