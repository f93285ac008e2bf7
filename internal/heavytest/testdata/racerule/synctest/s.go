package synctest
