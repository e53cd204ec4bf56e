#include "pith/pith_metadata.hpp"

namespace pith::meta {

std::string published_resolver(std::string_view base) {
  if (base.starts_with("https://") || base.starts_with("http://")) return std::string(base);
  return default_resolver;
}

}  // namespace pith::meta
