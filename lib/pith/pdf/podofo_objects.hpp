// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to pdf/'s sources that build or read PoDoFo objects directly
// (stamp, update, signatures): the PoDoFo names they share, and the two
// one-liners each spelled out: a dictionary's value by key, and an
// indirect reference to an object. Never included outside pdf/.
#include "pith/pdf/reader.hpp"

#include <podofo/base/PdfArray.h>
#include <podofo/base/PdfDictionary.h>
#include <podofo/base/PdfName.h>
#include <podofo/base/PdfObject.h>
#include <podofo/base/PdfReference.h>

namespace pith::pdf {

using PoDoFo::PdfArray;
using PoDoFo::PdfDictionary;
using PoDoFo::PdfName;
using PoDoFo::PdfObject;

// The value of /`name` in `d` (not resolved when it is a reference); nullptr when absent.
inline const PdfObject* key(const PdfDictionary& d, const char* name) { return d.GetKey(PdfName(name)); }

// `R` to the object `id`, as a value to put in a dictionary or an array.
inline PdfObject reference(ObjectId id) { return PdfObject(PoDoFo::PdfReference(id.number, id.generation)); }

}  // namespace pith::pdf
