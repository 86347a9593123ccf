// Swift never includes this: the system-library target exists so that SwiftPM finds
// libmicrohttpd through pkg-config and links it into every target that depends on it.
#include <microhttpd.h>
