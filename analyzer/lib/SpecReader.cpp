#include "rooflint/analyzer/SpecReader.h"

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
    P.dim_count = static_cast<std::uint8_t>(std::min<int64_t>(integer(field(N, spelling::PolyDimCount)), dsl::max_dims));
    Node Dims = field(N, spelling::PolyDims);
    for (unsigned I = 0; I < P.dim_count; ++I) P.dims[I] = name(element(Dims, I));
    P.term_count =
        static_cast<std::uint8_t>(std::min<int64_t>(integer(field(N, spelling::PolyTermCount)), dsl::max_terms));
    Node Terms = field(N, spelling::PolyTerms);
    for (unsigned T = 0; T < P.term_count; ++T) {
      Node Term = element(Terms, T);
      P.terms[T].coefficient = real(field(Term, spelling::Coefficient));
      Node Exps = field(Term, spelling::Exponents);
      for (unsigned D = 0; D < dsl::max_dims; ++D)
        P.terms[T].exponents[D] = static_cast<std::uint8_t>(integer(element(Exps, D)));
    }
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

llvm::Expected<ReadSpec> readSpec(const APValue &Value, QualType T, const ASTContext &Ctx) {
  namespace sp = spelling;
  Reader R(Ctx);
  ReadSpec Out;
  dsl::spec &S = Out.Spec;
  const Node Root{&Value, T};

  S.kernel_name = R.name(R.field(Root, sp::KernelName));

  const Node Op = R.field(Root, sp::Op);
  S.op.kind = static_cast<dsl::op_kind>(R.integer(R.field(Op, sp::OpKind)));
  S.op.name = R.name(R.field(Op, sp::OpName));
  S.op.flops = R.poly(R.field(Op, sp::OpFlops));
  S.op.zero_under_torch = R.integer(R.field(Op, sp::OpZeroUnderTorch)) != 0;
  S.op.causal = R.integer(R.field(Op, sp::OpCausal)) != 0;
  S.op.derived_count = static_cast<std::uint8_t>(
      std::min<int64_t>(R.integer(R.field(Op, sp::OpDerivedCount)), S.op.derived.size()));
  const Node Derived = R.field(Op, sp::OpDerived);
  for (unsigned I = 0; I < S.op.derived_count; ++I) {
    const Node D = R.element(Derived, I);
    S.op.derived[I] = {R.name(R.field(D, sp::DerivedName)),    R.name(R.field(D, sp::DerivedSource)),
                       R.name(R.field(D, sp::DerivedWindow)),  R.integer(R.field(D, sp::DerivedStride)),
                       R.integer(R.field(D, sp::DerivedPadding)), R.integer(R.field(D, sp::DerivedDilation))};
  }
  S.op.constraint_count = static_cast<std::uint8_t>(
      std::min<int64_t>(R.integer(R.field(Op, sp::OpConstraintCount)), S.op.constraints.size()));
  const Node Constraints = R.field(Op, sp::OpConstraints);
  for (unsigned I = 0; I < S.op.constraint_count; ++I) {
    const Node C = R.element(Constraints, I);
    S.op.constraints[I] = {R.name(R.field(C, sp::ConstraintLhs)), R.integer(R.field(C, sp::ConstraintFactor)),
                           R.name(R.field(C, sp::ConstraintRhs))};
  }

  S.op.precision_stated = R.integer(R.field(Op, sp::OpPrecisionStated)) != 0;
  for (auto [Field, Out] : {std::pair{sp::OpCompute, &S.op.compute}, std::pair{sp::OpAccumulate, &S.op.accumulate}}) {
    const int64_t D = R.integer(R.field(Op, Field));
    if (D < 0 || D >= static_cast<int64_t>(model::dtype_count)) R.fail("the operation's precision dtype is out of range");
    *Out = static_cast<model::dtype>(D);
  }

  S.dim_count = static_cast<std::uint8_t>(std::min<int64_t>(R.integer(R.field(Root, sp::DimCount)), dsl::max_dims));
  const Node Dims = R.field(Root, sp::Dims);
  for (unsigned I = 0; I < S.dim_count; ++I) {
    const Node D = R.element(Dims, I);
    S.dims[I].name = R.name(R.field(D, sp::DimName));
    S.dims[I].static_size = R.real(R.field(D, sp::DimStaticSize));
    S.dims[I].declared_size = R.real(R.field(D, sp::DimDeclaredSize));
  }

  S.tensor_count =
      static_cast<std::uint8_t>(std::min<int64_t>(R.integer(R.field(Root, sp::TensorCount)), dsl::max_tensors));
  const Node Tensors = R.field(Root, sp::Tensors);
  for (unsigned I = 0; I < S.tensor_count; ++I) {
    const Node N = R.element(Tensors, I);
    dsl::tensor_info &Info = S.tensors[I];
    Info.name = R.name(R.field(N, sp::TensorName));
    const int64_t Dtype = R.integer(R.field(N, sp::TensorDtype));
    if (Dtype < 0 || Dtype >= static_cast<int64_t>(model::dtype_count)) R.fail("a tensor's dtype is out of range");
    Info.dtype = static_cast<model::dtype>(Dtype);
    Info.access = static_cast<dsl::role>(R.integer(R.field(N, sp::TensorAccess)));
    Info.arg = static_cast<std::int8_t>(R.integer(R.field(N, sp::TensorArg)));
    Info.rank = static_cast<std::uint8_t>(std::min<int64_t>(R.integer(R.field(N, sp::TensorRank)), dsl::max_rank));
    const Node Shape = R.field(N, sp::TensorShape);
    for (unsigned D = 0; D < Info.rank; ++D) Info.shape[D] = static_cast<std::int8_t>(R.integer(R.element(Shape, D)));
    Info.elements = R.poly(R.field(N, sp::TensorElements));
    Info.partial = R.integer(R.field(N, sp::TensorPartial)) != 0;
    Info.extra = R.integer(R.field(N, sp::TensorExtra)) != 0;
  }

  const Node Conv = R.field(Root, sp::Convention);
  S.convention.count_elementwise = R.integer(R.field(Conv, sp::CountElementwise)) != 0;
  S.convention.halve_causal = R.integer(R.field(Conv, sp::HalveCausal)) != 0;
  const int64_t Mode = R.integer(R.field(Root, sp::Mode));
  if (Mode < 0 || Mode >= static_cast<int64_t>(model::math_mode_count)) R.fail("the spec's math mode is out of range");
  S.mode = static_cast<model::math_mode>(Mode);
  const Node Exp = R.field(Root, sp::Expected);
  S.expected.bound = static_cast<dsl::expected_bound>(R.integer(R.field(Exp, sp::ExpectedBound)));
  S.expected.max_traffic_ratio = R.real(R.field(Exp, sp::MaxTrafficRatio));
  S.expected.min_roofline_fraction = R.real(R.field(Exp, sp::MinRooflineFraction));
  S.flops = R.poly(R.field(Root, sp::Flops));
  S.read_bytes = R.poly(R.field(Root, sp::ReadBytes));
  S.written_bytes = R.poly(R.field(Root, sp::WrittenBytes));

  // How sizes are read from launches (dsl/launch.h).
  const Node Launch = R.field(Root, sp::Launch);
  S.launch.kind = static_cast<dsl::binding_kind>(R.integer(R.field(Launch, sp::LaunchKind)));
  S.launch.size_count = static_cast<std::uint8_t>(
      std::min<int64_t>(R.integer(R.field(Launch, sp::LaunchSizeCount)), dsl::max_dims));
  const Node LaunchSizes = R.field(Launch, sp::LaunchSizes);
  for (unsigned I = 0; I < S.launch.size_count; ++I) {
    const Node L = R.element(LaunchSizes, I);
    dsl::launch_size &Size = S.launch.sizes[I];
    Size.dim = R.name(R.field(L, sp::LaunchDim));
    Size.source = static_cast<dsl::size_source>(R.integer(R.field(L, sp::LaunchSource)));
    Size.index = static_cast<std::int8_t>(R.integer(R.field(L, sp::LaunchIndex)));
    Size.multiplier = R.integer(R.field(L, sp::LaunchMultiplier));
    Size.divisor = R.integer(R.field(L, sp::LaunchDivisor));
    Size.site = static_cast<std::int8_t>(R.integer(R.field(L, sp::LaunchSite)));
  }

  // A region's kernels (dsl/region.h): the count and patterns from the value, the functions from
  // region_spec's template arguments (a pack of function pointers and library_kernel objects).
  const Node Region = R.field(Root, sp::Region);
  S.region.kernel_count = static_cast<std::uint8_t>(
      std::min<int64_t>(R.integer(R.field(Region, sp::RegionKernelCount)), dsl::max_region_kernels));
  const Node RegionKernels = R.field(Region, sp::RegionKernels);
  for (unsigned I = 0; I < S.region.kernel_count; ++I) {
    const Node K = R.element(RegionKernels, I);
    S.region.kernels[I].match = static_cast<dsl::kernel_match>(R.integer(R.field(K, sp::RegionMatch)));
    S.region.kernels[I].pattern = R.name(R.field(K, sp::RegionPattern));
  }
  if (S.region.is_region()) {
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

  // min, max and ceil_div terms (dsl/poly.h): dimensions derived from their operands.
  const Node Terms = R.field(Root, sp::SizeTerms);
  S.size_terms.count = static_cast<std::uint8_t>(
      std::min<int64_t>(R.integer(R.field(Terms, sp::SizeTableCount)), dsl::max_size_terms));
  const Node TermList = R.field(Terms, sp::SizeTableTerms);
  for (unsigned I = 0; I < S.size_terms.count; ++I) {
    const Node N = R.element(TermList, I);
    dsl::size_term &Term = S.size_terms.terms[I];
    Term.name = R.name(R.field(N, sp::SizeTermName));
    const int64_t Op = R.integer(R.field(N, sp::SizeTermOp));
    if (Op < 0 || Op > static_cast<int64_t>(dsl::size_op::ceil_div)) R.fail("a size term's operation is out of range");
    Term.op = static_cast<dsl::size_op>(Op);
    Term.lhs = R.poly(R.field(N, sp::SizeTermLhs));
    Term.rhs = R.poly(R.field(N, sp::SizeTermRhs));
  }

  // kernel_spec<Kernel>::kernel: an lvalue whose base is the bound FunctionDecl.
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && (RD = RD->getDefinition())) {
    for (const FieldDecl *F : RD->fields()) {
      if (F->getName() != sp::KernelMember) continue;
      Out.HasKernelMember = true;
      if (F->getFieldIndex() >= Value.getStructNumFields()) break;
      const APValue &K = Value.getStructField(F->getFieldIndex());
      if (K.isLValue())
        if (const auto *VD = K.getLValueBase().dyn_cast<const ValueDecl *>())
          Out.Kernel = dyn_cast<FunctionDecl>(VD);
    }
  }

  if (!R.failure().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), R.failure());
  return Out;
}

}  // namespace rooflint::analyzer
