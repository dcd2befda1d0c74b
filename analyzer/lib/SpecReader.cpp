#include "rooflint/analyzer/SpecReader.h"

#include <algorithm>

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "rooflint/analyzer/DslSpellings.h"

using namespace clang;

namespace rooflint::analyzer {
namespace {

bool isNamedOrDerivedFrom(const CXXRecordDecl *RD, llvm::StringRef Name, unsigned Depth = 0) {
  if (!RD || Depth > 16) return false;
  // The unqualified name first: building qualified names for every record of a TU is not free.
  if (const IdentifierInfo *II = RD->getIdentifier(); II && Name.ends_with("::" + II->getName().str()) &&
      RD->getQualifiedNameAsString() == Name)
    return true;
  RD = RD->getDefinition();
  if (!RD) return false;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (isNamedOrDerivedFrom(B.getType()->getAsCXXRecordDecl(), Name, Depth + 1)) return true;
  return false;
}

/// A value with its type, as found while walking a record's constant value.
struct Node {
  const APValue *Value = nullptr;
  QualType Type;
};

/// Walks an APValue by field name; remembers the first failure.
class Reader {
public:
  explicit Reader(const ASTContext &Ctx) : Ctx(Ctx) {}

  Node field(Node N, llvm::StringRef Name) {
    if (!Failure.empty()) return {};
    if (Node Found = findField(N, Name, 0); Found.Value) return Found;
    fail("field '" + Name.str() + "' of '" + typeName(N) + "' not found");
    return {};
  }

  /// Element @p I of a C array or a std::array (a record whose only field is the C array).
  Node element(Node N, unsigned I) {
    if (!Failure.empty() || !N.Value) return {};
    N = unwrapStdArray(N);
    const clang::ArrayType *AT = Ctx.getAsArrayType(N.Type);
    if (!AT || !N.Value->isArray()) {
      fail("'" + typeName(N) + "' is not an array");
      return {};
    }
    if (I >= N.Value->getArraySize()) {
      fail("index past the end of '" + typeName(N) + "'");
      return {};
    }
    const APValue &E = I < N.Value->getArrayInitializedElts() ? N.Value->getArrayInitializedElt(I)
                                                               : N.Value->getArrayFiller();
    return {&E, AT->getElementType()};
  }

  unsigned arraySize(Node N) {
    if (!Failure.empty() || !N.Value) return 0;
    N = unwrapStdArray(N);
    return N.Value->isArray() ? N.Value->getArraySize() : 0;
  }

  int64_t integer(Node N) {
    if (!Failure.empty() || !N.Value) return 0;
    if (N.Value->isInt()) return N.Value->getInt().getExtValue();
    if (N.Value->isAbsent() || N.Value->isIndeterminate()) return 0;
    fail("a field of type '" + typeName(N) + "' is not an integer");
    return 0;
  }

  double real(Node N) {
    if (!Failure.empty() || !N.Value) return 0;
    if (N.Value->isFloat()) return N.Value->getFloat().convertToDouble();
    if (N.Value->isInt()) return static_cast<double>(N.Value->getInt().getExtValue());
    if (N.Value->isAbsent() || N.Value->isIndeterminate()) return 0;
    fail("a field of type '" + typeName(N) + "' is not a number");
    return 0;
  }

  bool flag(Node N) { return integer(N) != 0; }

  /// An enumerator stored as an integer, checked to lie in 0..Count-1; @p What names it in the failure.
  template <class Enum> Enum enumerator(Node N, std::size_t Count, llvm::StringRef What) {
    const int64_t V = integer(N);
    if (V < 0 || V >= static_cast<int64_t>(Count)) fail(What.str() + " is out of range");
    return static_cast<Enum>(V);
  }

  /// A counted table of the DSL (a count field beside a fixed-size array field): reads the count, clamped
  /// to 0..@p Capacity, and hands each of that many elements to @p Each(Element, Index).
  /// @return The count.
  template <class Fn>
  std::uint8_t table(Node N, llvm::StringRef CountField, llvm::StringRef ListField, std::size_t Capacity, Fn &&Each) {
    const auto Count =
        static_cast<std::uint8_t>(std::clamp<int64_t>(integer(field(N, CountField)), 0, static_cast<int64_t>(Capacity)));
    const Node List = field(N, ListField);
    for (unsigned I = 0; I < Count; ++I) Each(element(List, I), I);
    return Count;
  }

  dsl::name_t name(Node N) {
    dsl::name_t Out;
    Node Chars = field(N, spelling::NameChars);
    const unsigned Size = std::min<unsigned>(arraySize(Chars), dsl::name_capacity);
    for (unsigned I = 0; I < Size; ++I) Out.chars[I] = static_cast<char>(integer(element(Chars, I)));
    Out.chars[dsl::name_capacity - 1] = '\0';
    return Out;
  }

  dsl::poly poly(Node N) {
    dsl::poly P;
    P.dim_count = table(N, spelling::PolyDimCount, spelling::PolyDims, dsl::max_dims,
                        [&](Node Dim, unsigned I) { P.dims[I] = name(Dim); });
    P.term_count = table(N, spelling::PolyTermCount, spelling::PolyTerms, dsl::max_terms, [&](Node Term, unsigned T) {
      P.terms[T].coefficient = real(field(Term, spelling::Coefficient));
      P.terms[T].exponents.packed = static_cast<std::uint64_t>(integer(field(field(Term, spelling::Exponents), spelling::Packed)));
    });
    return P;
  }

  void fail(std::string Message) {
    if (Failure.empty()) Failure = std::move(Message);
  }
  const std::string &failure() const { return Failure; }

private:
  std::string typeName(Node N) const { return N.Type.isNull() ? "?" : N.Type.getUnqualifiedType().getAsString(); }

  Node findField(Node N, llvm::StringRef Name, unsigned Depth) {
    if (!N.Value || !N.Value->isStruct() || Depth > 16) return {};
    const CXXRecordDecl *RD = N.Type->getAsCXXRecordDecl();
    if (!RD || !(RD = RD->getDefinition())) return {};
    for (const FieldDecl *F : RD->fields()) {
      if (F->getName() != Name) continue;
      const unsigned Index = F->getFieldIndex();
      if (Index >= N.Value->getStructNumFields()) return {};
      return {&N.Value->getStructField(Index), F->getType()};
    }
    unsigned I = 0;
    for (const CXXBaseSpecifier &B : RD->bases()) {
      if (I >= N.Value->getStructNumBases()) break;
      if (Node Found = findField({&N.Value->getStructBase(I), B.getType()}, Name, Depth + 1); Found.Value)
        return Found;
      ++I;
    }
    return {};
  }

  /// std::array<T, N> is a record with one field, the C array (its name is the library's business).
  Node unwrapStdArray(Node N) const {
    if (!N.Value || !N.Value->isStruct()) return N;
    const CXXRecordDecl *RD = N.Type->getAsCXXRecordDecl();
    if (!RD || !(RD = RD->getDefinition())) return N;
    for (const FieldDecl *F : RD->fields())
      if (F->getType()->isArrayType() && F->getFieldIndex() < N.Value->getStructNumFields())
        return {&N.Value->getStructField(F->getFieldIndex()), F->getType()};
    return N;
  }

  const ASTContext &Ctx;
  std::string Failure;
};

}  // namespace

bool isSpecType(QualType T) {
  if (T.isNull() || T->isDependentType()) return false;
  return isNamedOrDerivedFrom(T->getAsCXXRecordDecl(), spelling::SpecRecord);
}

namespace {
namespace sp = spelling;

void readOperation(Reader &R, Node Op, dsl::op_info &O) {
  O.kind = static_cast<dsl::op_kind>(R.integer(R.field(Op, sp::OpKind)));
  O.name = R.name(R.field(Op, sp::OpName));
  O.flops = R.poly(R.field(Op, sp::OpFlops));
  O.zero_under_torch = R.flag(R.field(Op, sp::OpZeroUnderTorch));
  O.causal = R.flag(R.field(Op, sp::OpCausal));
  O.derived_count = R.table(Op, sp::OpDerivedCount, sp::OpDerived, O.derived.size(), [&](Node D, unsigned I) {
    O.derived[I] = {R.name(R.field(D, sp::DerivedName)),    R.name(R.field(D, sp::DerivedSource)),
                    R.name(R.field(D, sp::DerivedWindow)),  R.integer(R.field(D, sp::DerivedStride)),
                    R.integer(R.field(D, sp::DerivedPadding)), R.integer(R.field(D, sp::DerivedDilation))};
  });
  O.constraint_count =
      R.table(Op, sp::OpConstraintCount, sp::OpConstraints, O.constraints.size(), [&](Node C, unsigned I) {
        O.constraints[I] = {R.name(R.field(C, sp::ConstraintLhs)), R.integer(R.field(C, sp::ConstraintFactor)),
                            R.name(R.field(C, sp::ConstraintRhs))};
      });
  O.precision_stated = R.flag(R.field(Op, sp::OpPrecisionStated));
  for (auto [Field, Out] : {std::pair{sp::OpCompute, &O.compute}, std::pair{sp::OpAccumulate, &O.accumulate}})
    *Out = R.enumerator<model::dtype>(R.field(Op, Field), model::dtype_count, "the operation's precision dtype");
}

void readTensor(Reader &R, Node N, dsl::tensor_info &Info) {
  Info.name = R.name(R.field(N, sp::TensorName));
  Info.dtype = R.enumerator<model::dtype>(R.field(N, sp::TensorDtype), model::dtype_count, "a tensor's dtype");
  Info.access = static_cast<dsl::role>(R.integer(R.field(N, sp::TensorAccess)));
  Info.arg = static_cast<std::int32_t>(R.integer(R.field(N, sp::TensorArg)));
  Info.rank = static_cast<std::uint8_t>(std::min<int64_t>(R.integer(R.field(N, sp::TensorRank)), dsl::max_rank));
  const Node Shape = R.field(N, sp::TensorShape);
  for (unsigned D = 0; D < Info.rank; ++D) Info.shape[D] = static_cast<std::int8_t>(R.integer(R.element(Shape, D)));
  Info.elements = R.poly(R.field(N, sp::TensorElements));
  Info.partial = R.flag(R.field(N, sp::TensorPartial));
  Info.extra = R.flag(R.field(N, sp::TensorExtra));
  Info.offset = R.poly(R.field(N, sp::TensorOffset));
  Info.sliced = R.flag(R.field(N, sp::TensorSliced));
  Info.indices = static_cast<dsl::index_distribution>(R.integer(R.field(N, sp::TensorIndices)));
  Info.index_bound = static_cast<std::int8_t>(R.integer(R.field(N, sp::TensorIndexBound)));
}

/// How sizes are read from launches (dsl/launch.h).
void readLaunch(Reader &R, Node Launch, dsl::launch_binding &B) {
  B.kind = static_cast<dsl::binding_kind>(R.integer(R.field(Launch, sp::LaunchKind)));
  B.size_count = R.table(Launch, sp::LaunchSizeCount, sp::LaunchSizes, dsl::max_dims, [&](Node L, unsigned I) {
    dsl::launch_size &Size = B.sizes[I];
    Size.dim = R.name(R.field(L, sp::LaunchDim));
    Size.source = static_cast<dsl::size_source>(R.integer(R.field(L, sp::LaunchSource)));
    Size.index = static_cast<std::int32_t>(R.integer(R.field(L, sp::LaunchIndex)));
    Size.multiplier = R.integer(R.field(L, sp::LaunchMultiplier));
    Size.divisor = R.integer(R.field(L, sp::LaunchDivisor));
    Size.site = static_cast<std::int8_t>(R.integer(R.field(L, sp::LaunchSite)));
    Size.power_of_two = R.integer(R.field(L, sp::LaunchPowerOfTwo)) != 0;
  });
}

/// The grid, block and dynamic shared memory the kernel is written for (dsl/launch.h).
void readShape(Reader &R, Node Shape, dsl::launch_shape &S) {
  const auto extent = [&](Node E, dsl::launch_extent &Out) {
    Out.numerator = R.poly(R.field(E, sp::ExtentNumerator));
    Out.divisor = R.integer(R.field(E, sp::ExtentDivisor));
  };
  for (unsigned I = 0; I < 3; ++I) {
    extent(R.element(R.field(Shape, sp::ShapeGrid), I), S.grid[I]);
    extent(R.element(R.field(Shape, sp::ShapeBlock), I), S.block[I]);
  }
  extent(R.field(Shape, sp::ShapeShared), S.shared);
  S.grid_stated = R.flag(R.field(Shape, sp::ShapeGridStated));
  S.block_stated = R.flag(R.field(Shape, sp::ShapeBlockStated));
  S.shared_stated = R.flag(R.field(Shape, sp::ShapeSharedStated));
  S.registers = static_cast<int>(R.integer(R.field(Shape, sp::ShapeRegisters)));
}

/// min, max and ceil_div terms (dsl/poly.h): dimensions derived from their operands.
void readSizeTerms(Reader &R, Node Terms, dsl::size_table &Table) {
  Table.count = R.table(Terms, sp::SizeTableCount, sp::SizeTableTerms, dsl::max_size_terms, [&](Node N, unsigned I) {
    dsl::size_term &Term = Table.terms[I];
    Term.name = R.name(R.field(N, sp::SizeTermName));
    Term.op = R.enumerator<dsl::size_op>(R.field(N, sp::SizeTermOp), static_cast<std::size_t>(dsl::size_op::div) + 1,
                                         "a size term's operation");
    Term.lhs = R.poly(R.field(N, sp::SizeTermLhs));
    Term.rhs = R.poly(R.field(N, sp::SizeTermRhs));
  });
}

/// A region's kernels (dsl/region.h): the count and patterns from the value, the functions from
/// region_spec's template arguments (a pack of function pointers and library_kernel objects).
void readRegion(Reader &R, Node Region, QualType T, ReadSpec &Out) {
  dsl::spec &S = Out.Spec;
  S.region.kernel_count = R.table(Region, sp::RegionKernelCount, sp::RegionKernels, dsl::max_region_kernels,
                                  [&](Node K, unsigned I) {
                                    S.region.kernels[I].match =
                                        static_cast<dsl::kernel_match>(R.integer(R.field(K, sp::RegionMatch)));
                                    S.region.kernels[I].pattern = R.name(R.field(K, sp::RegionPattern));
                                  });
  if (!S.region.is_region()) return;
  if (const auto *CTS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
      CTS && CTS->getTemplateArgs().size() == 1 && CTS->getTemplateArgs()[0].getKind() == TemplateArgument::Pack) {
    for (const TemplateArgument &A : CTS->getTemplateArgs()[0].pack_elements()) {
      const FunctionDecl *F = nullptr;
      if (A.getKind() == TemplateArgument::Declaration) F = dyn_cast<FunctionDecl>(A.getAsDecl());
      Out.RegionKernels.push_back(F);
    }
  }
  if (Out.RegionKernels.size() != S.region.kernel_count)
    R.fail("region '" + std::string(S.kernel_name.view()) + "' names " + std::to_string(S.region.kernel_count) +
           " kernels, but its type has " + std::to_string(Out.RegionKernels.size()) + " template arguments");
  for (unsigned I = 0; I < Out.RegionKernels.size() && I < S.region.kernel_count; ++I)
    if (S.region.kernels[I].match == dsl::kernel_match::function && !Out.RegionKernels[I])
      R.fail("kernel " + std::to_string(I) + " of region '" + std::string(S.kernel_name.view()) +
             "' is not a function the analyzer can find");
}

/// kernel_spec<Kernel>::kernel: an lvalue whose base is the bound FunctionDecl.
void readKernelMember(const APValue &Value, QualType T, ReadSpec &Out) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !(RD = RD->getDefinition())) return;
  for (const FieldDecl *F : RD->fields()) {
    if (F->getName() != sp::KernelMember) continue;
    Out.HasKernelMember = true;
    if (F->getFieldIndex() >= Value.getStructNumFields()) return;
    const APValue &K = Value.getStructField(F->getFieldIndex());
    if (K.isLValue())
      if (const auto *VD = K.getLValueBase().dyn_cast<const ValueDecl *>()) Out.Kernel = dyn_cast<FunctionDecl>(VD);
  }
}

}  // namespace

llvm::Expected<ReadSpec> readSpec(const APValue &Value, QualType T, const ASTContext &Ctx) {
  Reader R(Ctx);
  ReadSpec Out;
  dsl::spec &S = Out.Spec;
  const Node Root{&Value, T};

  S.kernel_name = R.name(R.field(Root, sp::KernelName));
  readOperation(R, R.field(Root, sp::Op), S.op);
  S.dim_count = R.table(Root, sp::DimCount, sp::Dims, dsl::max_dims, [&](Node D, unsigned I) {
    S.dims[I].name = R.name(R.field(D, sp::DimName));
    S.dims[I].static_size = R.real(R.field(D, sp::DimStaticSize));
    S.dims[I].declared_size = R.real(R.field(D, sp::DimDeclaredSize));
  });
  S.tensor_count = R.table(Root, sp::TensorCount, sp::Tensors, dsl::max_tensors,
                           [&](Node N, unsigned I) { readTensor(R, N, S.tensors[I]); });

  const Node Conv = R.field(Root, sp::Convention);
  S.convention.count_elementwise = R.flag(R.field(Conv, sp::CountElementwise));
  S.convention.halve_causal = R.flag(R.field(Conv, sp::HalveCausal));
  S.mode = R.enumerator<model::math_mode>(R.field(Root, sp::Mode), model::math_mode_count, "the spec's math mode");
  const Node Exp = R.field(Root, sp::Expected);
  S.expected.bound = static_cast<dsl::expected_bound>(R.integer(R.field(Exp, sp::ExpectedBound)));
  S.expected.max_traffic_ratio = R.real(R.field(Exp, sp::MaxTrafficRatio));
  S.expected.min_roofline_fraction = R.real(R.field(Exp, sp::MinRooflineFraction));
  S.flops = R.poly(R.field(Root, sp::Flops));
  S.read_bytes = R.poly(R.field(Root, sp::ReadBytes));
  S.written_bytes = R.poly(R.field(Root, sp::WrittenBytes));

  readLaunch(R, R.field(Root, sp::Launch), S.launch);
  readShape(R, R.field(Root, sp::Shape), S.shape);
  readSizeTerms(R, R.field(Root, sp::SizeTerms), S.size_terms);
  readRegion(R, R.field(Root, sp::Region), T, Out);
  readKernelMember(Value, T, Out);

  if (!R.failure().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), R.failure());
  return Out;
}

}  // namespace rooflint::analyzer
