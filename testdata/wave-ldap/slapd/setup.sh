#!/bin/sh
# The scratch slapd the wave-ldap charts were run against: slapd 2.5 on
# 127.0.0.1:3899, suffix dc=example,dc=com, anonymous sizelimit 5, ppolicy
# and syncprov, ACLs hiding ou=hidden and pwdAccountLockedTime/shadowExpire
# from anonymous binds, and a referral for ou=remote to ldap2. Usage: setup.sh DIR ROOTPW (stop it: kill $(cat DIR/slapd.pid))
set -eu
dir=$1 pw=$2 here=$(dirname "$0")
mkdir -p "$dir/db"
sed "s|DIR|$dir|g; s|ROOTPW_HASH|$(slappasswd -s "$pw")|" "$here/slapd.conf.in" > "$dir/slapd.conf"
/usr/sbin/slapd -f "$dir/slapd.conf" -h "ldap://127.0.0.1:3899/"
sleep 1
(umask 077; printf %s "$pw" > "$dir/pw")
ldapadd -x -H ldap://127.0.0.1:3899 -D cn=admin,dc=example,dc=com -y "$dir/pw" -f "$here/data.ldif" >/dev/null
ldapmodify -x -H ldap://127.0.0.1:3899 -D cn=admin,dc=example,dc=com -y "$dir/pw" >/dev/null <<LDIF
dn: uid=carol,ou=people,dc=example,dc=com
changetype: modify
add: pwdAccountLockedTime
pwdAccountLockedTime: 20261201000000Z
LDIF
# a referral: ou=remote is held by ldap2 (ldapsearch prints # refldap://…)
ldapadd -x -M -H ldap://127.0.0.1:3899 -D cn=admin,dc=example,dc=com -y "$dir/pw" >/dev/null <<LDIF
dn: ou=remote,dc=example,dc=com
objectClass: referral
objectClass: extensibleObject
ou: remote
ref: ldap://ldap2.example.com/ou=remote,dc=example,dc=com
LDIF
rm -f "$dir/pw"
