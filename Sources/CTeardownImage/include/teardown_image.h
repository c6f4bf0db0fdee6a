#ifndef TEARDOWN_IMAGE_H
#define TEARDOWN_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/// Image work for Teardown over libvips, behind a header without glib types.
/// Every function returns 0 on success, or -1 with a message copied into `error`.

/// Formats Teardown reads. The caller picks one from the file's first bytes, so a file
/// is never handed to a loader its name or libvips' sniffing would choose.
enum td_format { TD_JPEG = 1, TD_PNG = 2, TD_WEBP = 3, TD_GIF = 4, TD_SVG = 5 };

/// A decoded image held in memory, upright and in 8-bit sRGB.
typedef struct td_image td_image;

/// What a photo's header and metadata say, read before anything is stripped.
typedef struct {
    /// Size of the stored pixels, before the EXIF orientation is applied.
    int width, height;
    /// EXIF orientation 1-8 (1 when absent).
    int orientation;
    /// Raw libvips renderings of EXIF fields ("" when absent), parsed by the caller.
    char make[96], model[96], taken[64];
    char latitude[128], latitude_ref[32], longitude[128], longitude_ref[32];
} td_metadata;

/// Starts libvips once per process. Loaders marked untrusted are blocked.
int td_start(const char *argv0, char *error, size_t error_size);

/// libvips' version, e.g. "8.14.1": another version may decode or encode differently. Loads
/// libvips; NULL when it cannot be loaded.
const char *td_vips_version(void);

/// The file libvips was loaded from, once loaded (after td_vips_version or td_start); NULL before.
const char *td_vips_library(void);

/// Reads the header and metadata without decoding pixels.
int td_probe(const char *path, int format, td_metadata *metadata, char *error, size_t error_size);

/// Decodes a whole image, failing on any damage, applies its EXIF orientation and converts it
/// to 8-bit sRGB. `max_pixels` guards against decompression bombs before anything is decoded.
/// For SVG, `width` and `height` (when > 0) are the size to render at. `metadata`, when not
/// NULL, receives what td_probe would, from the same load.
int td_open(const char *path, int format, int64_t max_pixels, int width, int height, td_image **image,
            td_metadata *metadata, char *error, size_t error_size);

void td_close(td_image *image);
int td_width(const td_image *image);
int td_height(const td_image *image);
int td_has_alpha(const td_image *image);

/// A copy of `image` scaled to `width` pixels wide (never wider than it is), held in memory.
int td_scaled(const td_image *image, int width, int height, td_image **scaled, char *error, size_t error_size);

/// Saves `image` with every metadata field removed. `format` is TD_JPEG, TD_PNG or TD_WEBP;
/// JPEG is flattened on white; `lossless` applies to WebP. Writes the file at `path`.
int td_save(const td_image *image, const char *path, int format, int quality, int lossless,
            char *error, size_t error_size);

/// The alpha channel as `width * height` bytes (malloc'd; free with td_free), or NULL in
/// `alpha` when the image is opaque.
int td_alpha(const td_image *image, uint8_t **alpha, char *error, size_t error_size);
void td_free(void *pointer);

/// The value of each band at one pixel, up to four bands; returns the number of bands.
int td_pixel(const td_image *image, int x, int y, double values[4]);

/// Draws `count` images over a transparent canvas, bottom first, each at its position.
int td_compose(int width, int height, int count, td_image *const *layers, const int *x, const int *y,
               td_image **composed, char *error, size_t error_size);

#endif
