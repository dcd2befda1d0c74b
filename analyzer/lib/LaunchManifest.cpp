#include "rooflint/analyzer/LaunchManifest.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

namespace rooflint::analyzer {
namespace {

manifest::param_kind kindOf(clang::QualType T) {
  T = T.getCanonicalType();
  if (T->isBooleanType()) return manifest::param_kind::boolean;
  if (T->isEnumeralType()) return manifest::param_kind::enumeration;
  if (T->isIntegerType()) return manifest::param_kind::integer;
  if (T->isPointerType()) return manifest::param_kind::pointer;
  if (T->isRealFloatingType()) return manifest::param_kind::floating;
  if (T->isRecordType()) return manifest::param_kind::record;
  return manifest::param_kind::other;
}

}  // namespace

std::vector<manifest::parameter> kernelParams(const clang::FunctionDecl &F) {
  const clang::ASTContext &Ctx = F.getASTContext();
  std::vector<manifest::parameter> Out;
  uint64_t Offset = 0;
  for (const clang::ParmVarDecl *P : F.parameters()) {
    manifest::parameter R;
    R.index = static_cast<int>(Out.size());
    R.name = P->getNameAsString();
    const clang::QualType T = P->getType();
    R.type = T.getCanonicalType().getAsString(Ctx.getPrintingPolicy());
    R.kind = kindOf(T);
    if (!T->isIncompleteType() && !T->isDependentType()) {
      R.size_bytes = static_cast<int>(Ctx.getTypeSizeInChars(T).getQuantity());
      R.align_bytes = static_cast<int>(Ctx.getTypeAlignInChars(T).getQuantity());
    }
    const uint64_t Align = R.align_bytes ? R.align_bytes : 1;
    Offset = (Offset + Align - 1) / Align * Align;  // the argument buffer places each at its alignment
    R.offset_bytes = static_cast<int>(Offset);
    Offset += R.size_bytes;
    R.is_signed = (R.kind == manifest::param_kind::integer || R.kind == manifest::param_kind::enumeration) &&
                  T->isSignedIntegerOrEnumerationType();
    Out.push_back(std::move(R));
  }
  return Out;
}

}  // namespace rooflint::analyzer
