#include "keras/hdf5/file.hpp"

#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <hdf5.h>

#include "keras/hdf5/heap_check.hpp"
#include "keras/hdf5/reader.hpp"

namespace keras::hdf5 {
namespace {

// HDF5 prints its own error stack by default; kerascpp reports errors as exceptions instead.
void silence_hdf5() {
  static const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)silenced;
}

[[noreturn]] void fail(const std::string& what, const std::string& where) {
  throw IOError("HDF5: " + what + " (" + where + ")");
}

hid check(hid id, const std::string& what, const std::string& where) {
  if (id < 0) fail(what, where);
  return id;
}

Handle make(hid id, const std::string& what, const std::string& where) {
  return Handle(check(id, what, where), where);
}

std::string child_path(const std::string& parent, const std::string& name) {
  return parent.back() == '/' ? parent + name : parent + "/" + name;
}

std::vector<std::string> read_strings(hid attr, const std::string& where) {
  Handle type = make(H5Aget_type(attr), "cannot read the attribute's type", where);
  Handle space = make(H5Aget_space(attr), "cannot read the attribute's shape", where);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id());
  if (n < 0) fail("cannot count the attribute's values", where);
  if (n == 0) return {};  // h5py writes an empty list as an empty float64 array
  if (H5Tget_class(type.id()) != H5T_STRING) fail("attribute is not a string", where);
  std::vector<std::string> out;
  if (H5Tis_variable_str(type.id()) > 0) {
    std::vector<char*> ptrs(static_cast<std::size_t>(n), nullptr);
    Handle mem = make(H5Tcopy(H5T_C_S1), "cannot make a string type", where);
    H5Tset_size(mem.id(), H5T_VARIABLE);
    H5Tset_cset(mem.id(), H5Tget_cset(type.id()));
    if (H5Aread(attr, mem.id(), ptrs.data()) < 0) fail("cannot read the string attribute", where);
    for (char* p : ptrs) out.emplace_back(p ? p : "");
    H5Dvlen_reclaim(mem.id(), space.id(), H5P_DEFAULT, ptrs.data());
  } else {
    const std::size_t size = H5Tget_size(type.id());
    std::vector<char> buf(size * static_cast<std::size_t>(n) + 1, '\0');
    if (H5Aread(attr, type.id(), buf.data()) < 0) fail("cannot read the string attribute", where);
    for (hssize_t i = 0; i < n; ++i) {
      const char* s = buf.data() + static_cast<std::size_t>(i) * size;
      out.emplace_back(s, strnlen(s, size));  // null-padded or null-terminated
    }
  }
  return out;
}

void write_strings(hid loc, const std::string& name, const std::vector<std::string>& values, bool scalar,
                   const std::string& where) {
  if (H5Aexists(loc, name.c_str()) > 0) H5Adelete(loc, name.c_str());
  if (values.empty() && !scalar) {  // as h5py stores an empty list: a float64 array of length 0
    const hsize_t zero[1] = {0};
    Handle space = make(H5Screate_simple(1, zero, nullptr), "cannot make a dataspace", where);
    Handle attr = make(H5Acreate2(loc, name.c_str(), H5T_IEEE_F64LE, space.id(), H5P_DEFAULT, H5P_DEFAULT),
                       "cannot create attribute '" + name + "'", where);
    return;
  }
  Handle type = make(H5Tcopy(H5T_C_S1), "cannot make a string type", where);
  H5Tset_size(type.id(), H5T_VARIABLE);
  H5Tset_cset(type.id(), H5T_CSET_UTF8);
  const hsize_t dims[1] = {values.size()};
  Handle space = make(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, nullptr), "cannot make a dataspace", where);
  Handle attr = make(H5Acreate2(loc, name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT),
                     "cannot create attribute '" + name + "'", where);
  std::vector<const char*> ptrs;
  for (const auto& v : values) ptrs.push_back(v.c_str());
  if (H5Awrite(attr.id(), type.id(), ptrs.data()) < 0) fail("cannot write attribute '" + name + "'", where);
}

}  // namespace

Handle::Handle(Handle&& other) noexcept : id_(other.id_), path_(std::move(other.path_)) { other.id_ = -1; }

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    this->~Handle();
    id_ = other.id_;
    path_ = std::move(other.path_);
    other.id_ = -1;
  }
  return *this;
}

Handle::~Handle() {
  if (id_ < 0) return;
  switch (H5Iget_type(id_)) {
    case H5I_FILE: H5Fclose(id_); break;
    case H5I_GROUP:
    case H5I_DATASET: H5Oclose(id_); break;
    case H5I_ATTR: H5Aclose(id_); break;
    case H5I_DATASPACE: H5Sclose(id_); break;
    case H5I_DATATYPE: H5Tclose(id_); break;
    case H5I_GENPROP_LST: H5Pclose(id_); break;
    default: break;
  }
}

Group::Group(std::shared_ptr<const Reader> reader, std::uint64_t object, std::string where, std::string file)
    : h_(-1, std::move(where)), file_(std::move(file)), reader_(std::move(reader)), object_(object) {}

File File::open(const std::string& path) {
  silence_hdf5();
  if (!std::filesystem::exists(path)) throw IOError("No file or directory found at " + path);
  if (std::filesystem::is_directory(path)) throw IOError("'" + path + "' is a folder, not an HDF5 file");
  if (auto reader = Reader::open(path)) return File(Handle(-1, path), path, std::move(reader));
  // A version 2 or 3 superblock: checksummed metadata, which the HDF5 library checks as it reads.
  check_global_heaps(path);
  hid id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw IOError("Cannot open the HDF5 file '" + path + "': it is truncated or corrupt");
  return File(Handle(id, path), path);
}

File File::create(const std::string& path) {
  silence_hdf5();
  hid id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw IOError("Cannot create the HDF5 file '" + path + "' (is the folder writable?)");
  return File(Handle(id, path), path);
}

Group File::root() const {
  if (reader_) return Group(reader_, reader_->root(), path_ + ":/", path_);
  return Group(make(H5Gopen2(h_.id(), "/", H5P_DEFAULT), "cannot open the root group", path_ + ":/"), path_);
}

void File::flush() {
  if (reader_) return;  // opened for reading
  if (H5Fflush(h_.id(), H5F_SCOPE_GLOBAL) < 0) throw IOError("Cannot write the HDF5 file '" + path_ + "' to disk");
}

bool Group::has(const std::string& name) const {
  if (reader_) return reader_->find(object_, name).has_value();
  // Check each step of a path, as H5Lexists needs its parents to exist.
  std::string prefix;
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto slash = name.find('/', start);
    prefix = name.substr(0, slash);
    if (H5Lexists(h_.id(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

Group Group::open_group(const std::string& name) const {
  const std::string where = child_path(h_.path(), name);
  const std::string missing = "HDF5 file has no group '" + name + "' (" + where + ")";
  if (reader_) {
    const auto object = reader_->find(object_, name);
    if (!object) throw IOError(missing);
    if (!reader_->is_group(*object)) fail("'" + name + "' is not a group", where);
    return Group(reader_, *object, where, file_);
  }
  if (!has(name)) throw IOError(missing);
  return Group(make(H5Gopen2(h_.id(), name.c_str(), H5P_DEFAULT), "cannot open group", where), file_);
}

Group Group::create_group(const std::string& name) {
  if (has(name)) return open_group(name);
  const std::string where = child_path(h_.path(), name);
  Handle lcpl = make(H5Pcreate(H5P_LINK_CREATE), "cannot make a property list", where);
  H5Pset_create_intermediate_group(lcpl.id(), 1);
  return Group(make(H5Gcreate2(h_.id(), name.c_str(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT), "cannot create group", where),
               file_);
}

std::vector<std::string> Group::children() const {
  if (reader_) return reader_->children(object_, h_.path());
  std::vector<std::string> names;
  H5Literate(
      h_.id(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->emplace_back(name);
        return 0;
      },
      &names);
  return names;
}

namespace {

/// A damaged file can declare any shape; before memory is allocated for it, the declared size must be
/// what the file stores (for the contiguous datasets Keras and h5py write; a chunked one is read as declared).
void check_declared_size(const Handle& ds, const Handle& type, const std::vector<hsize_t>& dims, const std::string& where) {
  constexpr std::uint64_t kLimit = std::uint64_t(1) << 50;
  std::uint64_t count = 1;
  for (hsize_t d : dims) {
    if (d != 0 && count > kLimit / d) fail("the dataset declares an impossibly large shape (corrupt file?)", where);
    count *= d;
  }
  const std::uint64_t declared = count * H5Tget_size(type.id());
  Handle dcpl = make(H5Dget_create_plist(ds.id()), "cannot read the dataset's layout", where);
  if (declared > 0 && H5Pget_layout(dcpl.id()) == H5D_CONTIGUOUS && H5Dget_storage_size(ds.id()) < declared)
    fail(fmt::format("the dataset declares {} values ({} bytes) but the file stores {} bytes of them (truncated or "
                     "corrupt file?)",
                     count, declared, H5Dget_storage_size(ds.id())),
         where);
}

}  // namespace

Tensor Group::read_dataset(const std::string& name) const {
  const std::string where = child_path(h_.path(), name);
  const std::string missing = "HDF5 file has no dataset '" + name + "' (" + where + ")";
  if (reader_) {
    const auto object = reader_->find(object_, name);
    if (!object) throw IOError(missing);
    return reader_->read_dataset(*object, where);
  }
  if (!has(name)) throw IOError(missing);
  Handle ds = make(H5Dopen2(h_.id(), name.c_str(), H5P_DEFAULT), "cannot open dataset", where);
  Handle space = make(H5Dget_space(ds.id()), "cannot read the dataset's shape", where);
  Handle type = make(H5Dget_type(ds.id()), "cannot read the dataset's type", where);
  const int rank = H5Sget_simple_extent_ndims(space.id());
  if (rank < 0) fail("cannot read the dataset's rank", where);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  Shape shape(dims.begin(), dims.end());
  check_declared_size(ds, type, dims, where);
  const H5T_class_t cls = H5Tget_class(type.id());
  if (cls == H5T_FLOAT) {
    Tensor t = Tensor::empty(shape);
    if (t.size() && H5Dread(ds.id(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, t.raw_data()) < 0)
      fail("cannot read the dataset's values (truncated file?)", where);
    return t;
  }
  if (cls == H5T_INTEGER) {
    Tensor t = Tensor::empty(shape, DType::int64);
    if (t.size() && H5Dread(ds.id(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, t.raw_data()) < 0)
      fail("cannot read the dataset's values (truncated file?)", where);
    return t;
  }
  fail("dataset is neither float nor integer", where);
}

void Group::write_dataset(const std::string& name, const Tensor& value) {
  const std::string where = child_path(h_.path(), name);
  std::vector<hsize_t> dims(value.shape().begin(), value.shape().end());
  Handle space = make(dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(int(dims.size()), dims.data(), nullptr),
                      "cannot make a dataspace", where);
  hid_t file_type = H5T_IEEE_F32LE, mem_type = H5T_NATIVE_FLOAT;
  switch (value.dtype()) {
    case DType::float32: break;
    case DType::int32: file_type = H5T_STD_I32LE; mem_type = H5T_NATIVE_INT32; break;
    case DType::int64: file_type = H5T_STD_I64LE; mem_type = H5T_NATIVE_INT64; break;
    case DType::uint8:
    case DType::bool_: file_type = H5T_STD_U8LE; mem_type = H5T_NATIVE_UINT8; break;
    case DType::float64: file_type = H5T_IEEE_F64LE; mem_type = H5T_NATIVE_DOUBLE; break;
    case DType::string: fail("string tensors are not written as HDF5 datasets", where);
  }
  Handle lcpl = make(H5Pcreate(H5P_LINK_CREATE), "cannot make a property list", where);
  H5Pset_create_intermediate_group(lcpl.id(), 1);
  Handle ds = make(H5Dcreate2(h_.id(), name.c_str(), file_type, space.id(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT),
                   "cannot create dataset", where);
  if (value.size() && H5Dwrite(ds.id(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, value.raw_data()) < 0)
    fail("cannot write dataset (disk full?)", where);
}

bool Group::has_attr(const std::string& name) const {
  if (reader_) return reader_->has_attr(object_, name);
  return H5Aexists(h_.id(), name.c_str()) > 0;
}

std::string Group::string_attr(const std::string& name) const {
  auto v = string_list_attr(name);
  if (v.size() != 1) fail("attribute '" + name + "' is not a single string", h_.path());
  return v[0];
}

std::vector<std::string> Group::string_list_attr(const std::string& name) const {
  const std::string where = h_.path() + "@" + name;
  if (reader_) return reader_->string_attr(object_, name, where);  // which names a missing attribute alike
  if (!has_attr(name)) throw IOError("HDF5 object has no attribute '" + name + "' (" + where + ")");
  Handle attr = make(H5Aopen(h_.id(), name.c_str(), H5P_DEFAULT), "cannot open attribute", where);
  return read_strings(attr.id(), where);
}

void Group::set_string_attr(const std::string& name, const std::string& value) {
  write_strings(h_.id(), name, {value}, true, h_.path() + "@" + name);
}

void Group::set_string_list_attr(const std::string& name, const std::vector<std::string>& values) {
  write_strings(h_.id(), name, values, false, h_.path() + "@" + name);
}

}  // namespace keras::hdf5
