// A header of the model layer that includes a layer above it: the layer check
// (cmake/check_layer.cmake) must refuse it. Never compiled.
#include "base/status.h"
#include "formats/importer.h"
