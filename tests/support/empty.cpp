// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps pith_test_support non-empty before any helper exists.
