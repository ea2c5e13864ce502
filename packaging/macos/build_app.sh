#!/usr/bin/env bash
# Sign, package and notarize Earshot.app. Run on macOS by `python packaging/build.py`, which first
# builds dist/Earshot.app with PyInstaller (packaging/earshot.spec: Info.plist with
# NSMicrophoneUsageDescription, entitlements.plist, every binary inside signed when
# MACOS_SIGN_IDENTITY is set). By hand:  packaging/macos/build_app.sh dist/Earshot.app 0.1.0
#
# Keys come from the environment only (never from this repository):
#   MACOS_SIGN_IDENTITY    "Developer ID Application: Name (TEAMID)". Unset: ad-hoc signature, fine on
#                          the build Mac; a downloaded copy is then blocked by Gatekeeper.
#   MACOS_CERT_P12_BASE64  optional (CI): that identity as a base64 .p12, with MACOS_CERT_PASSWORD;
#                          imported into a temporary keychain that is deleted at the end.
#   Notarization (skipped when neither is set), either an App Store Connect API key:
#     APPLE_API_KEY_PATH (the .p8 file), APPLE_API_KEY_ID, APPLE_API_ISSUER
#   or an Apple ID with an app-specific password:
#     APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD
# Output: dist/Earshot-<version>-macos.dmg (the app and an Applications link), signed, notarized
# and stapled when the keys are there.
set -euo pipefail

APP=${1:?usage: build_app.sh path/to/Earshot.app VERSION}
VERSION=${2:?usage: build_app.sh path/to/Earshot.app VERSION}
HERE=$(cd "$(dirname "$0")" && pwd)
DIST=$(cd "$(dirname "$APP")" && pwd)
DMG="$DIST/Earshot-$VERSION-macos.dmg"
WORK=$(mktemp -d)
KEYCHAIN=""

cleanup() {
    if [[ -n "$KEYCHAIN" ]]; then security delete-keychain "$KEYCHAIN" || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

if [[ -n "${MACOS_CERT_P12_BASE64:-}" ]]; then
    KEYCHAIN="$WORK/earshot-signing.keychain-db"
    KEYCHAIN_PASSWORD=$(uuidgen)
    security create-keychain -p "$KEYCHAIN_PASSWORD" "$KEYCHAIN"
    security set-keychain-settings -lut 3600 "$KEYCHAIN"
    security unlock-keychain -p "$KEYCHAIN_PASSWORD" "$KEYCHAIN"
    echo "$MACOS_CERT_P12_BASE64" | base64 --decode > "$WORK/cert.p12"
    security import "$WORK/cert.p12" -k "$KEYCHAIN" -P "${MACOS_CERT_PASSWORD:?}" -T /usr/bin/codesign
    security set-key-partition-list -S apple-tool:,apple: -s -k "$KEYCHAIN_PASSWORD" "$KEYCHAIN" >/dev/null
    # shellcheck disable=SC2046  # the list is a set of quoted paths
    security list-keychains -d user -s "$KEYCHAIN" $(security list-keychains -d user | tr -d '"')
fi

IDENTITY=${MACOS_SIGN_IDENTITY:--}  # "-" is an ad-hoc signature
SIGN=(codesign --force --sign "$IDENTITY")
if [[ "$IDENTITY" != "-" ]]; then
    SIGN+=(--timestamp --options runtime)  # the hardened runtime and a secure timestamp: notarization needs both
fi

# PyInstaller signed every binary inside (inside-out); seal the bundle itself with the entitlements.
"${SIGN[@]}" --entitlements "$HERE/entitlements.plist" "$APP"
codesign --verify --deep --strict --verbose=2 "$APP"

# The smoke test, from the signed app (headless: Qt offscreen).
QT_QPA_PLATFORM=offscreen "$APP/Contents/MacOS/earshot" --self-test

mkdir "$WORK/dmg"
cp -R "$APP" "$WORK/dmg/"
ln -s /Applications "$WORK/dmg/Applications"
rm -f "$DMG"
hdiutil create -volname "Earshot $VERSION" -srcfolder "$WORK/dmg" -fs HFS+ -format UDZO -ov "$DMG"
if [[ "$IDENTITY" != "-" ]]; then
    codesign --force --timestamp --sign "$IDENTITY" "$DMG"
fi

if [[ -n "${APPLE_API_KEY_PATH:-}" ]]; then
    xcrun notarytool submit "$DMG" --key "$APPLE_API_KEY_PATH" --key-id "${APPLE_API_KEY_ID:?}" \
        --issuer "${APPLE_API_ISSUER:?}" --wait
elif [[ -n "${APPLE_ID:-}" ]]; then
    xcrun notarytool submit "$DMG" --apple-id "$APPLE_ID" --team-id "${APPLE_TEAM_ID:?}" \
        --password "${APPLE_APP_PASSWORD:?}" --wait
else
    echo "not notarized (no APPLE_API_KEY_PATH or APPLE_ID): Gatekeeper will block a downloaded copy" >&2
    echo "$DMG"
    exit 0
fi
# notarytool --wait exits 0 also when Apple rejects the upload; stapling fails then, and its log says why:
#   xcrun notarytool log <submission id> ...
xcrun stapler staple "$DMG"
xcrun stapler validate "$DMG"
spctl --assess --type open --context context:primary-signature --verbose "$DMG"
echo "$DMG"
