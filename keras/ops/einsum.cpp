#include "keras/ops/einsum.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/diagonal.hpp"
#include "keras/ops/dtype_dispatch.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

bool has(const std::string& s, char c) { return s.find(c) != std::string::npos; }

struct Term {
  Tensor t;
  std::string spec;  // one letter per axis of t
};

// Ellipsis axes become the labels '0', '1', ... (right-aligned across operands).
std::string expand_ellipsis(const std::string& spec, int rank, int total, const std::string& eq) {
  const auto at = spec.find("...");
  if (at == std::string::npos) return spec;
  const int letters = static_cast<int>(spec.size()) - 3;
  const int k = rank - letters;
  if (k < 0) throw ValueError(fmt::format("einsum: \"{}\" has more letters than its operand's {} axes", spec, rank));
  std::string labels;
  for (int i = total - k; i < total; ++i) labels += static_cast<char>('0' + i);
  return spec.substr(0, at) + labels + spec.substr(at + 3);
}

// Takes the diagonal of every letter repeated within one operand ("ii" → "i").
void take_diagonals(Term& term) {
  for (std::size_t p = 0; p < term.spec.size(); ++p) {
    const auto q = term.spec.find(term.spec[p], p + 1);
    if (q == std::string::npos) continue;
    if (term.t.dim(static_cast<int>(p)) != term.t.dim(static_cast<int>(q)))
      throw ValueError(fmt::format("einsum: the repeated letter '{}' has sizes {} and {}", term.spec[p],
                                   term.t.dim(static_cast<int>(p)), term.t.dim(static_cast<int>(q))));
    const char c = term.spec[p];
    term.t = diagonal(term.t, 0, static_cast<int>(p), static_cast<int>(q));
    term.spec.erase(q, 1);
    term.spec.erase(p, 1);
    term.spec += c;
    p = static_cast<std::size_t>(-1);  // start again: positions moved
  }
}

// Sums the axes whose letters are not in `keep`.
void sum_unused(Term& term, const std::string& keep) {
  std::vector<int> axes;
  std::string kept;
  for (std::size_t i = 0; i < term.spec.size(); ++i) {
    if (has(keep, term.spec[i])) kept += term.spec[i];
    else axes.push_back(static_cast<int>(i));
  }
  if (axes.empty()) return;
  term.t = sum(term.t, axes, false);
  term.spec = kept;
}

Tensor permute(const Tensor& t, const std::string& from, const std::string& to) {
  std::vector<int> perm;
  for (char c : to) perm.push_back(static_cast<int>(from.find(c)));
  std::vector<int> identity(perm.size());
  std::iota(identity.begin(), identity.end(), 0);
  return perm == identity ? t : transpose(t, perm);
}

// a * b summed over their shared letters that are not in `keep`; the result's letters are batch+rows+cols.
Term contract(Term a, Term b, const std::string& keep) {
  sum_unused(a, b.spec + keep);
  sum_unused(b, a.spec + keep);
  std::string batch, rows, inner, cols;
  for (char c : a.spec) {
    if (has(b.spec, c)) (has(keep, c) ? batch : inner) += c;
    else rows += c;
  }
  for (char c : b.spec)
    if (!has(a.spec, c)) cols += c;
  auto size = [&](char c) {
    const auto ia = a.spec.find(c);
    return ia != std::string::npos ? a.t.dim(static_cast<int>(ia)) : b.t.dim(static_cast<int>(b.spec.find(c)));
  };
  for (char c : batch + inner)
    if (a.t.dim(static_cast<int>(a.spec.find(c))) != b.t.dim(static_cast<int>(b.spec.find(c))))
      throw ValueError(fmt::format("einsum: the letter '{}' has size {} in one operand and {} in another", c,
                                   a.t.dim(static_cast<int>(a.spec.find(c))), b.t.dim(static_cast<int>(b.spec.find(c)))));
  auto product = [&](const std::string& letters) {
    std::int64_t p = 1;
    for (char c : letters) p *= size(c);
    return p;
  };
  // The product comes out as batch + rows + cols: when the kept letters list b's before a's, b goes first
  // (the attention scores "aecd,abcd->acbe" then need no transposition of their [batch, heads, T, T] result).
  if (!rows.empty() && !cols.empty() && keep.find(cols[0]) < keep.find(rows[0])) {
    std::swap(a, b);
    std::swap(rows, cols);
  }
  const std::int64_t nb = product(batch), m = product(rows), k = product(inner), n = product(cols);
  Shape shape;
  for (char c : batch + rows + cols) shape.push_back(size(c));
  if (batch.empty()) {
    const Tensor am = permute(a.t, a.spec, rows + inner), bm = permute(b.t, b.spec, inner + cols);
    return {reshape(matmul(reshape(am, {m, k}), reshape(bm, {k, n})), shape), rows + cols};
  }
  // Each operand of a batched product is multiplied as stored, or stored transposed, whichever its letters
  // already follow, else the one that keeps its last axis last (a cheaper transposition: rows stay whole).
  auto transposed = [](const std::string& spec, const std::string& plain, const std::string& flipped) {
    return spec != plain && (spec == flipped || (spec.back() != plain.back() && spec.back() == flipped.back()));
  };
  const bool ta = transposed(a.spec, batch + rows + inner, batch + inner + rows);
  const bool tb = transposed(b.spec, batch + inner + cols, batch + cols + inner);
  const Tensor am = permute(a.t, a.spec, ta ? batch + inner + rows : batch + rows + inner);
  const Tensor bm = permute(b.t, b.spec, tb ? batch + cols + inner : batch + inner + cols);
  const Tensor y = batch_matmul(reshape(am, ta ? Shape{nb, k, m} : Shape{nb, m, k}),
                                reshape(bm, tb ? Shape{nb, n, k} : Shape{nb, k, n}), ta, tb);
  return {reshape(y, shape), batch + rows + cols};
}

}  // namespace

Tensor einsum(const std::string& subscripts, const std::vector<Tensor>& operands) {
  std::string eq;
  for (char c : subscripts)
    if (!std::isspace(static_cast<unsigned char>(c))) eq += c;
  if (operands.empty()) throw ValueError("einsum needs at least one operand");
  const auto arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> specs;
  for (std::size_t start = 0;;) {
    const auto comma = lhs.find(',', start);
    specs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (specs.size() != operands.size())
    throw ValueError(fmt::format("einsum: \"{}\" names {} operands but {} were given", subscripts, specs.size(),
                                 operands.size()));
  int ellipsis_rank = 0;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (has(specs[i], '.'))
      ellipsis_rank = std::max(ellipsis_rank, operands[i].ndim() - (static_cast<int>(specs[i].size()) - 3));
  DType dtype = operands[0].dtype();
  std::vector<Term> terms;
  std::map<char, int> count;  // occurrences in the subscripts (the implicit output keeps the letters seen once)
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (!operands[i].defined()) throw ValueError("einsum received an undefined tensor");
    dtype = detail::result_dtype(dtype, operands[i].dtype());
    for (char c : specs[i])
      if (!std::isalpha(static_cast<unsigned char>(c)) && c != '.')
        throw ValueError(fmt::format("einsum: '{}' in \"{}\" is not a letter", c, subscripts));
    Term t{operands[i].dtype() == DType::float32 ? operands[i] : cast(operands[i], DType::float32),
           expand_ellipsis(specs[i], operands[i].ndim(), ellipsis_rank, subscripts)};
    if (static_cast<int>(t.spec.size()) != t.t.ndim())
      throw ValueError(fmt::format("einsum: \"{}\" has {} letters but operand {} has shape {}", specs[i], t.spec.size(),
                                   i, shape_str(t.t.shape())));
    for (char c : t.spec) ++count[c];
    take_diagonals(t);
    terms.push_back(t);
  }
  std::string out;
  if (arrow != std::string::npos) {
    out = expand_ellipsis(eq.substr(arrow + 2), ellipsis_rank + static_cast<int>(eq.size() - arrow - 2 - 3), ellipsis_rank, subscripts);
    for (char c : out) {
      bool found = false;
      for (const auto& t : terms) found = found || has(t.spec, c);
      if (!found) throw ValueError(fmt::format("einsum: the output letter '{}' is in no operand of \"{}\"", c, subscripts));
    }
  } else {
    for (auto [c, n] : count)  // digits (ellipsis axes) sort before letters, so they lead, as NumPy
      if (n == 1 || std::isdigit(static_cast<unsigned char>(c))) out += c;
  }
  Term acc = terms[0];
  for (std::size_t i = 1; i < terms.size(); ++i) {
    std::string keep = out;
    for (std::size_t j = i + 1; j < terms.size(); ++j) keep += terms[j].spec;
    acc = contract(acc, terms[i], keep);
  }
  sum_unused(acc, out);
  Tensor result = permute(acc.t, acc.spec, out);
  return dtype == DType::float32 ? result : cast(result, dtype);
}

}  // namespace keras::ops
