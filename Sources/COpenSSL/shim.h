#ifndef TRUSTSUITE_COPENSSL_SHIM_H
#define TRUSTSUITE_COPENSSL_SHIM_H
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#endif
